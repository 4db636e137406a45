import type { PageAssets } from '../../shared/content.ts';
import { backendHeroAssets } from './backend-assets.ts';
import type { HeroAssetOptions, HeroAssetSource } from './hero-source.ts';
import type { Config } from '../config.ts';
import type { SiteContent } from '../content/site-content.ts';

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
