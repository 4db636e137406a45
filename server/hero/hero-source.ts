import type { Logger } from 'pino';
import type { HeroSlide, PageAssets } from '../../shared/page-data.ts';
import type { CacheObserver, CacheOutcome } from '../backend/cache-events.ts';

/** One answer of a cached source: what to serve, how it was served, and how old it is. */
export interface Served<T> {
  outcome: CacheOutcome;
  value: T;
  ageMs: number;
  /** Whether the backend is failing, so that a stale answer stands in for it as long as it may. */
  failing: boolean;
  /** For a fallback: the status the failed backend call is reported with. */
  failureStatus: number | null;
}

/**
 * Where the hero's slides and logo come from: the content file, or (when configured) the backend:
 * from-content.ts and from-backend.ts.
 */
export interface HeroSource {
  /** For the page: slides null while unknown (the browser then asks /api/hero-slides). */
  get(): Promise<PageAssets>;
  /** What get() answers, when it is at hand without waiting for the backend; else null. */
  current(): PageAssets | null;
  /** For /api/hero-slides: never unknown; a fallback is an empty list. */
  heroSlides(): Promise<Served<HeroSlide[]>>;
  /** For /api/logo. */
  logo(): Promise<Served<string | null>>;
}

export interface HeroSourceOptions {
  logger: Logger;
  observer: CacheObserver;
  /** The caches' clock, in ms since the epoch. */
  now: () => number;
}
