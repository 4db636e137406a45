import type { PageAssets } from '../shared/content.ts';
import type { SiteContent } from './content.ts';

/** Where the hero's slides and logo come from: the content file, or (when configured) the backend. */
export interface HeroAssetSource {
  get(): Promise<PageAssets>;
}

/** The slides and logo shipped in the content file, for running without a backend. */
export function embeddedHeroAssets(content: SiteContent): HeroAssetSource {
  const assets: PageAssets = { heroSlides: content.heroSlides, logoUrl: content.logoUrl };
  return { get: async () => assets };
}
