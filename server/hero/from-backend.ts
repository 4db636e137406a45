import type { HeroSlide, PageAssets } from '../../shared/page-data.ts';
import { checkHeroSlides, type Checked } from '../backend/backend-data.ts';
import { BackendCache, servingWindows, type CacheAnswer, type CacheEntry } from '../backend/cache.ts';
import type { CachedEndpoint } from '../backend/cache-events.ts';
import type { Config } from '../config/environment.ts';
import type { HeroSourceOptions, HeroSource, Served } from './hero-source.ts';
import type { BackendConnection } from '../backend/connection.ts';
import type { ImagePolicy } from '../backend/image-policy.ts';
import type { SavedEntry } from '../backend/snapshot.ts';

/**
 * The hero's slides and logo from the Supabase backend, each behind its own cache that
 * the page and /api share. Nothing good known: the page gets no slides (null, so the
 * browser asks again) and the public address of the default logo file.
 */
export function backendHeroSource(config: Config, backend: BackendConnection, options: HeroSourceOptions): HeroSource {
  const { calls, images, snapshot, saved } = backend;
  const defaultLogoUrl = calls.publicLogoUrl(config.logoFileName);

  const cacheOf = <T>(
    endpoint: CachedEndpoint,
    load: (signal: AbortSignal) => Promise<Checked<T>>,
    restored: CacheEntry<T> | null,
  ) =>
    new BackendCache<T>({
      endpoint,
      load,
      windows: servingWindows(config.cache),
      timeoutMs: config.upstreamTimeoutMs,
      now: options.now,
      observer: options.observer,
      logger: options.logger,
      saved: restored,
      onStored: (entry) => snapshot.save(endpoint, entry),
    });

  const now = options.now();
  const slides = cacheOf('hero-slides', calls.heroSlides, restoreSlides(saved['hero-slides'], images, now));
  const logo = cacheOf('logo', calls.logoUrl, restoreLogo(saved.logo, images, now));

  const assetsOf = (slideAnswer: CacheAnswer<HeroSlide[]>, logoAnswer: CacheAnswer<string>): PageAssets => ({
    heroSlides: slideAnswer.entry?.value ?? null,
    logoUrl: logoAnswer.entry?.value ?? defaultLogoUrl,
  });

  return {
    async get(): Promise<PageAssets> {
      const [slideAnswer, logoAnswer] = await Promise.all([slides.get(), logo.get()]);
      return assetsOf(slideAnswer, logoAnswer);
    },
    current() {
      const slideAnswer = slides.current();
      const logoAnswer = slideAnswer && logo.current();
      return logoAnswer ? assetsOf(slideAnswer, logoAnswer) : null;
    },
    heroSlides: async () => served(await slides.get(), NO_SLIDES),
    logo: async () => served(await logo.get(), defaultLogoUrl),
  };
}

const NO_SLIDES: HeroSlide[] = [];

function served<T>(answer: CacheAnswer<T>, fallback: T): Served<T> {
  const { outcome, ageMs, failing, failureStatus } = answer;
  return { outcome, value: answer.entry ? answer.entry.value : fallback, ageMs, failing, failureStatus };
}

/** A saved answer passes the same checks as a live one (IMAGE_HOSTS may have changed since). */
function restoreSlides(
  saved: SavedEntry | undefined,
  images: ImagePolicy,
  now: number,
): CacheEntry<HeroSlide[]> | null {
  if (!saved || !isTime(saved.fetchedAt)) return null;
  try {
    return {
      value: checkHeroSlides({ heroSlides: saved.value }, images).value,
      fetchedAt: Math.min(saved.fetchedAt, now),
    };
  } catch {
    return null;
  }
}

function restoreLogo(saved: SavedEntry | undefined, images: ImagePolicy, now: number): CacheEntry<string> | null {
  if (!saved || !isTime(saved.fetchedAt) || typeof saved.value !== 'string' || !images.allows(saved.value)) return null;
  return { value: saved.value, fetchedAt: Math.min(saved.fetchedAt, now) };
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
