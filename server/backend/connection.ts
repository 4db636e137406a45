import type { Logger } from 'pino';
import type { Config } from '../config/environment.ts';
import type { CachedEndpoint } from './cache-events.ts';
import { imagePolicy, type ImagePolicy } from './image-policy.ts';
import { snapshotFile, type SavedEntry, type SnapshotFile } from './snapshot.ts';
import { supabaseBackend, type BackendCalls } from './supabase.ts';

/** What the backend's sources share: one supabase-js client, the image policy and one snapshot file. */
export interface BackendConnection {
  calls: BackendCalls;
  images: ImagePolicy;
  snapshot: SnapshotFile;
  /** The answers an earlier run kept, unchecked. */
  saved: Partial<Record<CachedEndpoint, SavedEntry>>;
}

/** Creates the client and reads the snapshot, once per process. */
export function connectBackend(
  config: Config,
  backend: NonNullable<Config['backend']>,
  logger: Logger,
): BackendConnection {
  const images = imagePolicy(backend.url, config.imageHosts);
  const calls = supabaseBackend({ ...backend, images, logoFileName: config.logoFileName });
  const snapshot = snapshotFile(config.cache.snapshotPath, backend.url, logger);
  return { calls, images, snapshot, saved: snapshot.read() };
}
