/** How a cached /api answer was served, for metrics and logs. */
export type CacheOutcome = 'hit' | 'miss' | 'stale' | 'fallback';

/** The names of the cached backend calls. */
export type CachedEndpoint = 'hero-slides' | 'logo' | 'live';

/** Told about every cached answer and every failed backend call. */
export interface CacheObserver {
  served(endpoint: CachedEndpoint, outcome: CacheOutcome): void;
  upstreamError(endpoint: CachedEndpoint): void;
}

export const ignoreCacheEvents: CacheObserver = { served() {}, upstreamError() {} };
