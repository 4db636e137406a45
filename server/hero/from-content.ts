import type { PageAssets } from '../../shared/page-data.ts';
import type { SiteContent } from '../content/site-content.ts';
import type { HeroSource } from './hero-source.ts';

/** The content file changes only with a restart: its answers are always new. */
const ALWAYS_FRESH = { outcome: 'hit', ageMs: 0, failing: false, failureStatus: null } as const;

/** The slides and logo shipped in the content file, for running without a backend. */
export function embeddedHeroSource(content: SiteContent): HeroSource {
  const assets: PageAssets = { heroSlides: content.heroSlides, logoUrl: content.logoUrl };
  return {
    get: async () => assets,
    heroSlides: async () => ({ ...ALWAYS_FRESH, value: content.heroSlides }),
    logo: async () => ({ ...ALWAYS_FRESH, value: content.logoUrl }),
  };
}
