import type { Logger } from 'pino';
import type { HeroSlide, PageAssets } from '../../shared/content.ts';
import { backendHeroAssets } from './backend-assets.ts';
import type { CacheObserver, CacheOutcome } from './cache-events.ts';
import type { Config } from '../config.ts';
import type { SiteContent } from '../content/site-content.ts';

/** One answer of a cached source: what to serve, how it was served, and how old it is. */
export interface Served<T> {
  outcome: CacheOutcome;
  value: T;
  ageMs: number;
}

/** Where the hero's slides and logo come from: the content file, or (when configured) the backend. */
export interface HeroAssetSource {
  /** For the page: slides null while unknown (the browser then asks /api/hero-slides). */
  get(): Promise<PageAssets>;
  /** For /api/hero-slides: never unknown; a fallback is an empty list. */
  heroSlides(): Promise<Served<HeroSlide[]>>;
  /** For /api/logo. */
  logo(): Promise<Served<string | null>>;
}

export interface HeroAssetOptions {
  logger: Logger;
  observer: CacheObserver;
  /** The caches' clock, in ms since the epoch. */
  now: () => number;
}

/** The backend when one is configured, otherwise the content file. */
export function heroAssetsFor(config: Config, content: SiteContent, options: HeroAssetOptions): HeroAssetSource {
  return config.backend ? backendHeroAssets(config, config.backend, options) : embeddedHeroAssets(content);
}

/** The slides and logo shipped in the content file, for running without a backend. */
export function embeddedHeroAssets(content: SiteContent): HeroAssetSource {
  const assets: PageAssets = { heroSlides: content.heroSlides, logoUrl: content.logoUrl };
  return {
    get: async () => assets,
    heroSlides: async () => ({ outcome: 'hit', value: content.heroSlides, ageMs: 0 }),
    logo: async () => ({ outcome: 'hit', value: content.logoUrl, ageMs: 0 }),
  };
}
