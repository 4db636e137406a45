import type { Logger } from 'pino';
import { imagePolicy } from '../backend/image-policy.ts';
import type { Config } from '../config/environment.ts';
import { PUBLIC_DIR } from '../config/paths.ts';
import type { SiteContent } from '../content/site-content.ts';
import { EncodeQueue } from './encode-queue.ts';
import { encoderProcess, type PhotoEncoder } from './encoder-process.ts';
import { PIXEL_LIMITS } from './photo-encoding.ts';
import { localPhotos, photoLoader, remotePhotos } from './photo-loader.ts';
import { photoStore, type PhotoStore } from './photo-store.ts';
import { photos, type Photos } from './photos.ts';

/** Anything larger is no photo for a web page: a 50-megapixel camera's JPEG is about 20 MB at its best quality. */
export const MAX_PHOTO_BYTES = 16 * 1024 * 1024;
/** Photos are fetched in the background, one at a time: a slow storage may take this long for one. */
export const PHOTO_FETCH_TIMEOUT_MS = 20_000;
/** A photo that could not be made is tried again after this, in case it was replaced or the storage recovers. */
export const PHOTO_RETRY_MS = 60_000;
/** A photo replaced under the same address is shown within this (it is fetched again, and made again only when it changed). */
export const PHOTO_RECHECK_MS = 10 * 60_000;
/** The encoder's process stays this long after a photo, for the next one (a new set comes in a burst). */
const ENCODER_IDLE_MS = 10_000;
/** A 50-megapixel JPEG's pictures take a few seconds on one core: an encoder that takes this long has hung. */
const ENCODE_TIMEOUT_MS = 120_000;
/** Slides (MAX_HERO_SLIDES) and the logo, with room for a new set of each while the old one is still shown. */
const MAX_WAITING = 48;

/** The hero's photos, where their pictures are kept, and the encoder that makes them. */
export interface HeroPhotos {
  photos: Photos;
  store: PhotoStore;
  encoder: PhotoEncoder;
}

export interface HeroPhotoOptions {
  logger: Logger;
  now: () => number;
  /** For tests: a shorter fetch deadline and retry pause. */
  fetchTimeoutMs?: number;
  retryAfterFailureMs?: number;
}

/**
 * The hero's photos, made in PHOTOS_PATH: those the content file names (from public/, or from
 * the addresses it gives) and, with a backend, those of its storage and IMAGE_HOSTS, which the
 * image policy allows.
 */
export function heroPhotos(config: Config, content: SiteContent, options: HeroPhotoOptions): HeroPhotos {
  const policy = config.backend ? imagePolicy(config.backend.url, config.imageHosts) : null;
  const named = new Set(contentAddresses(content));
  const store = photoStore({ dir: config.photos.path, maxBytes: config.photos.maxBytes, logger: options.logger });
  const encoder = encoderProcess({
    limits: { maxPixels: PIXEL_LIMITS },
    idleMs: ENCODER_IDLE_MS,
    timeoutMs: ENCODE_TIMEOUT_MS,
  });
  const made = photos({
    groups: ['slides', 'logo'],
    store,
    queue: new EncodeQueue(MAX_WAITING),
    load: photoLoader(
      localPhotos(PUBLIC_DIR, MAX_PHOTO_BYTES),
      remotePhotos((address) => named.has(address) || (policy?.allows(address) ?? false), MAX_PHOTO_BYTES),
    ),
    encode: encoder.encode,
    fetchTimeoutMs: options.fetchTimeoutMs ?? PHOTO_FETCH_TIMEOUT_MS,
    retryAfterFailureMs: options.retryAfterFailureMs ?? PHOTO_RETRY_MS,
    recheckMs: PHOTO_RECHECK_MS,
    now: options.now,
    logger: options.logger,
  });
  return { photos: made, store, encoder };
}

/** The absolute image addresses of the content file's slides and logo. */
function contentAddresses(content: SiteContent): string[] {
  const slides = content.heroSlides.flatMap((slide) => [
    slide.image,
    ...(slide.srcset ?? '').split(',').map((candidate) => candidate.trim().split(/\s+/)[0]),
  ]);
  return [...slides, content.logoUrl].filter((address): address is string => !!address && URL.canParse(address));
}
