import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { encodePhoto, type EncodeLimits } from './encode.ts';
import type { EncodeQueue } from './encode-queue.ts';
import type { PhotoLoader } from './photo-loader.ts';
import type { PhotoSet, PhotoStore } from './photo-store.ts';
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
  limits: EncodeLimits;
  /** The longest fetching one photo may take. */
  fetchTimeoutMs: number;
  /** How long a photo that could not be made is left alone before it is tried again. */
  retryAfterFailureMs: number;
  now: () => number;
  logger: Logger;
}

export function photos(options: PhotosOptions): Photos {
  const { store, queue, logger } = options;
  const making = new Map<string, Promise<void>>();
  const failedAt = new Map<string, number>();
  const groups = new Map<string, readonly string[]>();
  let version = 0;

  const make = async (address: string, kind: PhotoKind) => {
    try {
      // Fetched inside the queue too: only one photo's bytes are held at a time.
      await queue.run(async () => {
        const bytes = await options.load(address, AbortSignal.timeout(options.fetchTimeoutMs));
        const photoHash = createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
        const same = store.withHash(photoHash, kind);
        if (same) return store.alias(address, same);
        const renditions = await encodePhoto(bytes, kind, options.limits);
        await store.put(address, kind, photoHash, renditions);
      });
      failedAt.delete(address);
      version += 1;
      logger.info({ address, kind }, 'photo made');
    } catch (error) {
      failedAt.set(address, options.now());
      logger.warn({ address, kind, reason: reasonOf(error) }, 'photo cannot be made; its slide shows the gradient');
    }
  };

  return {
    of(address, kind) {
      const made = store.get(address);
      if (made && made.kind === kind) return made;
      if (making.has(address)) return null;
      const failed = failedAt.get(address);
      if (failed !== undefined && options.now() - failed < options.retryAfterFailureMs) return null;
      const job = make(address, kind).finally(() => making.delete(address));
      making.set(address, job);
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
