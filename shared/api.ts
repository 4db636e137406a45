import type { LiveState } from './live-state.ts';
import type { HeroSlide } from './page-data.ts';

/** The server's cached JSON endpoints: the hero's backend assets, and the live state. */
export const API_PATHS = {
  heroSlides: '/api/hero-slides',
  logo: '/api/logo',
  live: '/api/live',
} as const;

/** /api/live: the notice and status as the server has them now, with their version. */
export type LiveAnswer = LiveState;

export interface HeroSlidesAnswer {
  heroSlides: HeroSlide[];
}

export interface LogoAnswer {
  url: string | null;
}
