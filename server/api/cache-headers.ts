import type { CacheSettings } from '../config/environment.ts';
import { servingWindows } from '../backend/cache.ts';
import type { Served } from '../hero/hero-source.ts';

/**
 * What an /api answer tells the caches in front (a CDN, Varnish, nginx, the browser) about how
 * long they may keep it, in terms every one of them computes the same way. The answer carries
 * no Age header: the server is its origin, and a cache computes what is left as max-age − Age
 * (RFC 9111 4.2.3), so max-age alone is what the server's own cache has left. Every window ends
 * where the server's ends, never later; seconds are rounded down for that reason.
 */
export interface AnswerFreshness {
  /** Seconds of freshness left (0 once stale). */
  maxAge: number;
  /** Seconds after that during which it may be served at once while revalidating (RFC 5861). */
  staleWhileRevalidate: number;
  /** Seconds after that during which it may stand in for a failing server (RFC 5861). */
  staleIfError: number;
}

type ServedState = Pick<Served<unknown>, 'outcome' | 'ageMs' | 'failing' | 'failureStatus'>;

export function answerFreshness(served: ServedState, cache: CacheSettings): AnswerFreshness {
  const { freshMs, servedAtOnceMs, usableMs } = servingWindows(cache);
  const left = (untilMs: number) => Math.max(0, Math.floor((untilMs - served.ageMs) / 1000));
  const maxAge = left(freshMs);
  return {
    maxAge,
    staleWhileRevalidate: Math.max(0, left(servedAtOnceMs(served.failing)) - maxAge),
    staleIfError: Math.max(0, left(usableMs) - maxAge),
  };
}

/** Cache-Control of an answer: public with its windows, or no-store for a fallback, which no cache may keep. */
export function cacheControl(served: ServedState, cache: CacheSettings): string {
  if (served.outcome === 'fallback') return 'no-store';
  const { maxAge, staleWhileRevalidate, staleIfError } = answerFreshness(served, cache);
  return `public, max-age=${maxAge}, stale-while-revalidate=${staleWhileRevalidate}, stale-if-error=${staleIfError}`;
}

/** The server's name for itself in Cache-Status; the caches in front append their own entries after it. */
export const CACHE_STATUS_NAME = 'landing';

/**
 * How the server's cache answered, in RFC 9211's terms: a hit with the seconds of freshness left
 * (negative once stale), a new answer from the backend that was stored, or the built-in fallback
 * with the status the backend call failed with.
 */
export function cacheStatus(served: ServedState, cache: CacheSettings): string {
  switch (served.outcome) {
    case 'hit':
    case 'stale':
      return `${CACHE_STATUS_NAME}; hit; ttl=${Math.floor((servingWindows(cache).freshMs - served.ageMs) / 1000)}`;
    case 'miss':
      return `${CACHE_STATUS_NAME}; fwd=miss; stored`;
    case 'fallback':
      return `${CACHE_STATUS_NAME}; fwd=miss; fwd-status=${served.failureStatus ?? 504}; detail=fallback`;
  }
}
