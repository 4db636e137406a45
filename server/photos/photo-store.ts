import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Rendition } from './photo-encoding.ts';
import { CONTENT_TYPES, type Crop, type PhotoFormat, type PhotoKind } from './renditions.ts';

/** One made picture, as a file of the store. */
export interface StoredRendition {
  /** The file's name, which is also the last part of its address: `<photo hash>-<crop><width>.<format>`. */
  file: string;
  crop: Crop;
  format: PhotoFormat;
  width: number;
  height: number;
  size: number;
}

/** Everything made of one photo. */
export interface PhotoSet {
  kind: PhotoKind;
  /** Part of the SHA-256 of the photo's bytes: the same photo gets the same names on every replica. */
  photoHash: string;
  renditions: StoredRendition[];
}

/**
 * The made pictures, as files in one folder (PHOTOS_PATH) with an index naming the photo each
 * was made from, so that a server restarted during a backend outage still serves them. Only
 * files the index names are ever served, and the folder never holds more than `maxBytes`: a
 * photo that would take more is refused. Pictures of photos the page no longer shows are
 * removed (`keepOnly`).
 */
export interface PhotoStore {
  /** The set made from this address, if any. */
  get(source: string): PhotoSet | undefined;
  /** A set made from the same bytes under another address (an editor's copy), for reuse. */
  withHash(photoHash: string, kind: PhotoKind): PhotoSet | undefined;
  /** Writes the renditions and names them in the index; throws when they would not fit. */
  put(source: string, kind: PhotoKind, photoHash: string, renditions: Rendition[]): Promise<PhotoSet>;
  /** Names an existing set under another address. */
  alias(source: string, set: PhotoSet): void;
  /** Forgets every set whose address is not among these, and removes the files no set names. */
  keepOnly(sources: ReadonlySet<string>): Promise<void>;
  /** A servable file by its name, or undefined when the index names none. */
  file(name: string): { path: string; type: string; size: number } | undefined;
  /** Bytes the named files take. */
  readonly usedBytes: number;
}

export interface PhotoStoreOptions {
  dir: string;
  maxBytes: number;
  logger: Logger;
}

interface IndexFile {
  sets: Record<string, PhotoSet>;
}

export const INDEX_FILE = 'index.json';
const EXTENSIONS: Record<PhotoFormat, string> = { webp: 'webp', jpeg: 'jpg', png: 'png' };
const FILE_NAME = /^[A-Za-z0-9_-]{22}-[lpo]\d{1,5}\.(webp|jpg|png)$/;
const TEMPORARY_FILE = /^([A-Za-z0-9_-]{22}-[lpo]\d{1,5}\.(webp|jpg|png)|index\.json)\.\d+\.[0-9a-f-]{36}\.tmp$/;

/** Part of the SHA-256 of a photo's bytes: the first part of its pictures' names. */
export function photoHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
}

/** The file name of a rendition: the photo's hash, the crop's initial and the width. */
export function renditionFile(photoHash: string, rendition: Pick<Rendition, 'crop' | 'width' | 'format'>): string {
  const crop = { landscape: 'l', portrait: 'p', logo: 'o' }[rendition.crop];
  return `${photoHash}-${crop}${rendition.width}.${EXTENSIONS[rendition.format]}`;
}

/** What a picture's name says of it (renditionFile's inverse), or null for a name the store never gives. */
export function renditionOfFile(
  file: string,
): (Pick<StoredRendition, 'crop' | 'format' | 'width'> & { photoHash: string }) | null {
  const match = /^([A-Za-z0-9_-]{22})-([lpo])(\d{1,5})\.(webp|jpg|png)$/.exec(file);
  if (!match) return null;
  const [, photoHash, crop, width, extension] = match;
  return {
    photoHash: photoHash!,
    crop: ({ l: 'landscape', p: 'portrait', o: 'logo' } as const)[crop as 'l' | 'p' | 'o'],
    format: ({ webp: 'webp', jpg: 'jpeg', png: 'png' } as const)[extension as 'webp' | 'jpg' | 'png'],
    width: Number(width),
  };
}

export function photoStore({ dir, maxBytes, logger }: PhotoStoreOptions): PhotoStore {
  const sets = readIndex(dir, logger);
  let files = namedFiles(sets);
  let writing: Promise<void> = Promise.resolve();
  removeUnnamed(dir, files);

  const usedBytes = () => [...files.values()].reduce((sum, { size }) => sum + size, 0);
  const saveIndex = () => {
    const contents: IndexFile = { sets: Object.fromEntries(sets) };
    writing = writing.then(() =>
      writeAtomically(path.join(dir, INDEX_FILE), JSON.stringify(contents)).catch((error: unknown) => {
        logger.warn({ err: error, path: dir }, 'cannot write the photo index');
      }),
    );
    return writing;
  };

  return {
    get: (source) => sets.get(source),
    withHash: (photoHash, kind) => [...sets.values()].find((set) => set.photoHash === photoHash && set.kind === kind),
    async put(source, kind, photoHash, renditions) {
      const set: PhotoSet = {
        kind,
        photoHash,
        renditions: renditions.map((rendition) => ({
          file: renditionFile(photoHash, rendition),
          crop: rendition.crop,
          format: rendition.format,
          width: rendition.width,
          height: rendition.height,
          size: rendition.bytes.length,
        })),
      };
      const adding = set.renditions.filter(({ file }) => !files.has(file));
      const needed = adding.reduce((sum, { size }) => sum + size, 0);
      if (usedBytes() + needed > maxBytes) {
        throw new Error(
          `its pictures take ${needed} bytes, and with the others that is more than PHOTOS_DISK_MB allows (${maxBytes} bytes)`,
        );
      }
      await mkdir(dir, { recursive: true });
      for (const rendition of renditions) {
        const file = renditionFile(photoHash, rendition);
        if (!files.has(file)) await writeAtomically(path.join(dir, file), rendition.bytes);
      }
      sets.set(source, set);
      const gone = [...files.keys()].filter((file) => !namedFiles(sets).has(file));
      files = namedFiles(sets);
      await saveIndex();
      // The pictures of the photo this one replaced, unless another address shows them.
      await Promise.all(gone.map((file) => unlink(path.join(dir, file)).catch(() => {})));
      return set;
    },
    alias(source, set) {
      sets.set(source, set);
      void saveIndex();
    },
    async keepOnly(sources) {
      const before = sets.size;
      for (const source of [...sets.keys()]) if (!sources.has(source)) sets.delete(source);
      if (sets.size === before) return;
      const gone = [...files.keys()].filter((file) => !namedFiles(sets).has(file));
      files = namedFiles(sets);
      await saveIndex();
      await Promise.all(gone.map((file) => unlink(path.join(dir, file)).catch(() => {})));
    },
    file(name) {
      const named = files.get(name);
      return named && { path: path.join(dir, name), type: CONTENT_TYPES[named.format], size: named.size };
    },
    get usedBytes() {
      return usedBytes();
    },
  };
}

function namedFiles(sets: Map<string, PhotoSet>): Map<string, StoredRendition> {
  return new Map([...sets.values()].flatMap((set) => set.renditions.map((rendition) => [rendition.file, rendition])));
}

/** The index an earlier run left, with only the sets whose every file is still there, whole. */
function readIndex(dir: string, logger: Logger): Map<string, PhotoSet> {
  let contents: Partial<IndexFile>;
  try {
    contents = JSON.parse(readFileSync(path.join(dir, INDEX_FILE), 'utf8')) as Partial<IndexFile>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.warn({ path: dir }, 'the photo index is unreadable; the photos are made again');
    return new Map();
  }
  const sets = new Map<string, PhotoSet>();
  for (const [source, set] of Object.entries(contents.sets ?? {})) {
    if (isWhole(dir, set)) sets.set(source, set);
  }
  return sets;
}

function isWhole(dir: string, set: PhotoSet): boolean {
  if (!Array.isArray(set?.renditions) || set.renditions.length === 0) return false;
  return set.renditions.every((rendition) => {
    if (typeof rendition?.file !== 'string' || !FILE_NAME.test(rendition.file)) return false;
    try {
      return statSync(path.join(dir, rendition.file)).size === rendition.size;
    } catch {
      return false;
    }
  });
}

/**
 * Pictures no set names, and files half written: left by a run that stopped while writing, or by
 * sets that are gone. Only names the store gives are touched, whatever else the folder holds.
 */
function removeUnnamed(dir: string, files: Map<string, StoredRendition>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const ours = FILE_NAME.test(name) || TEMPORARY_FILE.test(name);
    if (ours && !files.has(name)) rmSync(path.join(dir, name), { force: true });
  }
}

async function writeAtomically(file: string, contents: string | Buffer): Promise<void> {
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, contents, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
