import type { HeroSlide } from './page-data.ts';

/** The server's cached JSON endpoints for the hero's backend assets. */
export const API_PATHS = {
  heroSlides: '/api/hero-slides',
  logo: '/api/logo',
} as const;

export interface HeroSlidesAnswer {
  heroSlides: HeroSlide[];
}

export interface LogoAnswer {
  url: string | null;
}
