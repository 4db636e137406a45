import type { HeroSlide } from '../../shared/page-data.ts';
import { lengthProblem, TEXT_LIMITS } from '../content/text-limits.ts';
import type { ImagePolicy } from './image-policy.ts';

/**
 * Checks what the backend sends before anything of it reaches a page. The backend is
 * outside our control: wrong parts are dropped, and an answer with nothing usable left
 * is rejected as a whole so that it never replaces the last good one.
 */

export const MAX_HERO_SLIDES = 20;
/** A slide's label is a studio's name, held to the content file's limit for one (TEXT_LIMITS). */
export const MAX_STUDIO_LENGTH = TEXT_LIMITS.studioName;
const MAX_LOGO_NAME_LENGTH = 200;

/** The backend's answer cannot be used; the message says why, in one line. */
export class BackendDataError extends Error {
  override name = 'BackendDataError';
}

export interface Checked<T> {
  value: T;
  /** Why parts of the answer were left out, one line each. */
  dropped: string[];
}

/**
 * The hero-images answer: `{ heroSlides: [{ image, studio }] }`. A function that forgets
 * its JSON Content-Type reaches us as a string (supabase-js reads it as text), so a string is parsed.
 */
export function checkHeroSlides(data: unknown, images: ImagePolicy): Checked<HeroSlide[]> {
  const body = typeof data === 'string' ? parseJson(data) : data;
  if (!isRecord(body)) throw new BackendDataError(`hero-images answered ${describe(body)}, not an object`);
  const list = body.heroSlides;
  if (list === undefined) throw new BackendDataError('hero-images answered without heroSlides');
  if (!Array.isArray(list))
    throw new BackendDataError(`hero-images answered heroSlides as ${describe(list)}, not a list`);

  const slides: HeroSlide[] = [];
  const dropped: string[] = [];
  list.forEach((entry, i) => {
    const problem = slideProblem(entry, images);
    if (problem) dropped.push(`heroSlides.${i}: ${problem}`);
    else if (slides.length >= MAX_HERO_SLIDES) dropped.push(`heroSlides.${i}: more than ${MAX_HERO_SLIDES} slides`);
    else {
      const { image, studio } = entry as { image: string; studio: string };
      slides.push({ image, studio });
    }
  });
  if (list.length > 0 && slides.length === 0) {
    throw new BackendDataError(
      `hero-images answered no usable slide (${dropped[0]}${dropped.length > 1 ? `, and ${dropped.length - 1} more` : ''})`,
    );
  }
  return { value: slides, dropped };
}

function slideProblem(entry: unknown, images: ImagePolicy): string | null {
  if (!isRecord(entry)) return `is ${describe(entry)}, not an object`;
  const { image, studio } = entry;
  if (typeof image !== 'string') return `image is ${describe(image)}, not a string`;
  if (typeof studio !== 'string') return `studio is ${describe(studio)}, not a string`;
  if (!images.allows(image)) return 'image is not an https address on an allowed host';
  if (studio.trim() === '') return 'studio is empty';
  const tooLong = lengthProblem(studio.trim(), MAX_STUDIO_LENGTH);
  return tooLong ? `studio ${tooLong}` : null;
}

/**
 * The logo bucket's listing: the preferred file if present, otherwise the first file.
 * Folders (no metadata) and dotfiles such as `.emptyFolderPlaceholder` are not logos;
 * names getPublicUrl cannot turn into a working address are skipped. Null: no usable file.
 */
export function chooseLogoFile(data: unknown, preferred: string): Checked<string | null> {
  if (!Array.isArray(data)) throw new BackendDataError(`the logo listing is ${describe(data)}, not a list`);
  const names: string[] = [];
  const dropped: string[] = [];
  data.forEach((entry, i) => {
    if (!isRecord(entry) || typeof entry.name !== 'string') return dropped.push(`logo listing.${i}: has no name`);
    const { name, metadata } = entry;
    if (metadata === null || metadata === undefined || name.startsWith('.')) return; // a folder or a placeholder, not a file
    if (name.length > MAX_LOGO_NAME_LENGTH || /[/\\?#\p{Cc}]/u.test(name))
      return dropped.push(`logo listing.${i}: unusable file name`);
    names.push(name);
  });
  return { value: names.includes(preferred) ? preferred : (names[0] ?? null), dropped };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BackendDataError('hero-images answered something that is not JSON');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
