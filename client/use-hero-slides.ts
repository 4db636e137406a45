import { useEffect, useRef, useState } from 'react';
import { API_PATHS } from '../shared/api.ts';
import type { HeroSlide, PageSlide } from '../shared/page-data.ts';

/**
 * The hero's slides. When the server could not know them (null), they are asked once from
 * /api/hero-slides after hydration; an answer that does not arrive counts as no slides, so
 * "Loading studios..." never stays up.
 */
export function useHeroSlides(fromServer: PageSlide[] | null): PageSlide[] | null {
  const [slides, setSlides] = useState(fromServer);
  // A ref, not the effect's cleanup: StrictMode runs effects twice, the request goes out once.
  const asked = useRef(false);

  useEffect(() => {
    if (fromServer !== null || asked.current) return;
    asked.current = true;
    loadHeroSlides().then(setSlides, (error: unknown) => {
      console.warn('Failed to load hero slides:', error);
      setSlides([]);
    });
  }, [fromServer]);

  return slides;
}

async function loadHeroSlides(): Promise<HeroSlide[]> {
  const response = await fetch(API_PATHS.heroSlides, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${API_PATHS.heroSlides} answered ${response.status}`);
  const body = (await response.json()) as { heroSlides?: unknown };
  if (!Array.isArray(body.heroSlides) || !body.heroSlides.every(isSlide))
    throw new Error(`${API_PATHS.heroSlides} answered no list of slides`);
  return body.heroSlides;
}

function isSlide(value: unknown): value is HeroSlide {
  const slide = value as Partial<Record<keyof HeroSlide, unknown>> | null;
  return (
    typeof slide === 'object' &&
    slide !== null &&
    (typeof slide.image === 'string' || slide.image === null) &&
    typeof slide.studio === 'string'
  );
}
