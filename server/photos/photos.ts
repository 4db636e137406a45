import type { Logger } from 'pino';
import type { EncodeQueue } from './encode-queue.ts';
import type { EncodePhoto } from './photo-encoding.ts';
import type { PhotoLoader } from './photo-loader.ts';
import { photoHash, type PhotoSet, type PhotoStore } from './photo-store.ts';
import type { PhotoKind } from './renditions.ts';

/**
 * The photos of the hero, made in the background. Asking for a photo never waits: it is there
 * (made now or by an earlier run), or it is being made and the page goes without it until then,
 * or it could not be made and the page goes without it (its slide shows the hero's gradient).
 */
export interface Photos {
  /** The set made of the photo at `address`, or null while it is made or when it cannot be. */
  of(address: string, kind: PhotoKind): PhotoSet | null;
  /**
   * The photos one of the `groups` (the slides, the logo) shows now. Once every group has said,
   * the sets no group names are removed. Called with the last good list, so a backend outage
   * keeps its photos.
   */
  keep(group: string, addresses: readonly string[]): void;
  /** Changes whenever a photo has been made: what was built on the earlier state is out of date. */
  readonly version: number;
  /** Resolves once nothing is being made (for tests and benchmarks). */
  settled(): Promise<void>;
}

export interface PhotosOptions {
  /** Who shows photos; until each has said which (keep), none is removed. */
  groups: readonly string[];
  store: PhotoStore;
  queue: EncodeQueue;
  load: PhotoLoader;
  /** Makes a photo's pictures (in the encoder's process: encoder-process.ts). */
  encode: EncodePhoto;
  /** The longest fetching one photo may take. */
  fetchTimeoutMs: number;
  /** How long a photo that could not be made is left alone before it is tried again. */
  retryAfterFailureMs: number;
  /**
   * How often a made photo is fetched again, in the background, in case it was replaced under the
   * same address; its pictures stay until a different photo has been made.
   */
  recheckMs: number;
  now: () => number;
  logger: Logger;
}

export function photos(options: PhotosOptions): Photos {
  const { store, queue, logger } = options;
  const making = new Map<string, Promise<void>>();
  const failedAt = new Map<string, number>();
  /** When each made photo was last found the same (not since this process started: checked once soon). */
  const checkedAt = new Map<string, number>();
  const groups = new Map<string, readonly string[]>();
  let version = 0;

  /** Fetches the photo and makes its pictures, unless they are made already; whether anything new was made. */
  const fetchAndMake = (address: string, kind: PhotoKind) =>
    // Fetched inside the queue too: only one photo's bytes are held at a time.
    queue.run(async () => {
      const bytes = await options.load(address, AbortSignal.timeout(options.fetchTimeoutMs));
      const hash = photoHash(bytes);
      if (store.get(address)?.photoHash === hash) return false;
      const same = store.withHash(hash, kind);
      if (same) store.alias(address, same);
      else await store.put(address, kind, hash, await options.encode(bytes, kind));
      return true;
    });

  const make = async (address: string, kind: PhotoKind) => {
    const known = store.get(address) !== undefined;
    try {
      const changed = await fetchAndMake(address, kind);
      checkedAt.set(address, options.now());
      failedAt.delete(address);
      if (changed) {
        version += 1;
        logger.info({ address, kind }, known ? 'photo replaced' : 'photo made');
      }
    } catch (error) {
      const reason = reasonOf(error);
      if (known) {
        checkedAt.set(address, options.now());
        logger.warn({ address, kind, reason }, 'photo cannot be checked again; its last pictures stay');
      } else {
        failedAt.set(address, options.now());
        logger.warn({ address, kind, reason }, 'photo cannot be made; its slide shows the gradient');
      }
    }
  };

  const start = (address: string, kind: PhotoKind) => {
    if (making.has(address)) return;
    making.set(
      address,
      make(address, kind).finally(() => making.delete(address)),
    );
  };

  return {
    of(address, kind) {
      const made = store.get(address);
      if (made && made.kind === kind) {
        const checked = checkedAt.get(address);
        if (checked === undefined || options.now() - checked >= options.recheckMs) {
          checkedAt.set(address, options.now());
          start(address, kind);
        }
        return made;
      }
      const failed = failedAt.get(address);
      if (failed === undefined || options.now() - failed >= options.retryAfterFailureMs) start(address, kind);
      return null;
    },
    keep(group, addresses) {
      groups.set(group, addresses);
      if (!options.groups.every((name) => groups.has(name))) return;
      const wanted = new Set([...groups.values()].flat());
      for (const address of failedAt.keys()) if (!wanted.has(address)) failedAt.delete(address);
      // Photos being made are kept: their group may name them again in a moment.
      for (const address of making.keys()) wanted.add(address);
      void store.keepOnly(wanted);
    },
    get version() {
      return version;
    },
    async settled() {
      while (making.size > 0) await Promise.allSettled([...making.values()]);
    },
  };
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  const message = typeof code === 'string' ? `${error.message} (${code})` : error.message;
  return message.replace(/\s+/g, ' ').slice(0, 200);
}
