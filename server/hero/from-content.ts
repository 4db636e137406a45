import type { HeroSlide, PageAssets } from '../../shared/page-data.ts';
import type { SiteContent } from '../content/site-content.ts';
import type { HeroSource } from './hero-source.ts';

/** The content file changes only with a restart: its answers are always new. */
const ALWAYS_FRESH = { outcome: 'hit', ageMs: 0, failing: false, failureStatus: null } as const;

/**
 * The slides and logo shipped in the content file, for running without a backend. The page
 * carries each slide's studio id (its data holds every studio's name in every language);
 * /api/hero-slides names the studio, in its local form.
 */
export function embeddedHeroSource(content: SiteContent): HeroSource {
  const assets: PageAssets = { heroSlides: content.heroSlides, logoUrl: content.logoUrl };
  const answer = slidesWithLocalNames(content);
  return {
    get: async () => assets,
    current: () => assets,
    heroSlides: async () => ({ ...ALWAYS_FRESH, value: answer }),
    logo: async () => ({ ...ALWAYS_FRESH, value: content.logoUrl }),
  };
}

function slidesWithLocalNames(content: SiteContent): HeroSlide[] {
  const localNames = new Map(content.raw.studios.map(({ id, name }) => [id, name]));
  // The content check refuses a slide whose studio id is not a studio's.
  return content.heroSlides.map(({ studioId, ...slide }) => ({ ...slide, studio: localNames.get(studioId)! }));
}
