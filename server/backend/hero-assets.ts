import type { PageAssets } from '../../shared/content.ts';
import { backendHeroAssets } from './backend-assets.ts';
import type { HeroAssetOptions, HeroAssetSource } from './hero-source.ts';
import type { Config } from '../config.ts';
import type { SiteContent } from '../content/site-content.ts';

/** The backend when one is configured, otherwise the content file. */
export function heroAssetsFor(config: Config, content: SiteContent, options: HeroAssetOptions): HeroAssetSource {
  return config.backend ? backendHeroAssets(config, config.backend, options) : embeddedHeroAssets(content);
}

/** The content file changes only with a restart: its answers are always new. */
const ALWAYS_FRESH = { outcome: 'hit', ageMs: 0, failing: false, failureStatus: null } as const;

/** The slides and logo shipped in the content file, for running without a backend. */
export function embeddedHeroAssets(content: SiteContent): HeroAssetSource {
  const assets: PageAssets = { heroSlides: content.heroSlides, logoUrl: content.logoUrl };
  return {
    get: async () => assets,
    heroSlides: async () => ({ ...ALWAYS_FRESH, value: content.heroSlides }),
    logo: async () => ({ ...ALWAYS_FRESH, value: content.logoUrl }),
  };
}
