import type { HeroSlide, PageAssets, PageSlide, PictureSource } from '../../shared/page-data.ts';
import { PHOTOS_PATH } from '../photos/photo-route.ts';
import type { Photos } from '../photos/photos.ts';
import type { PhotoSet, StoredRendition } from '../photos/photo-store.ts';
import { CONTENT_TYPES, PORTRAIT_ASPECT } from '../photos/renditions.ts';
import type { HeroSource } from './hero-source.ts';

/**
 * What a slide or logo shows before its photo is made, or when it cannot be: `hide` leaves the
 * slide without a picture (the hero's gradient) and the page without a logo image (the product's
 * name as text), so that no visitor fetches the backend's full-size photo from its own origin;
 * `keep` shows the address as it is (the content file's own pictures, already on this origin).
 */
export type Unmade = 'hide' | 'keep';

/** The largest landscape JPEG the image itself is, for browsers that read no srcset and for link previews. */
const IMAGE_WIDTH = 1280;
/** The logo's picture at twice its height on the page: sharp on most screens, and small. */
const LOGO_HEIGHT = 144;

/**
 * The hero's slides and logo with the pictures this server makes of them (server/photos/), in
 * place of the addresses the source gives: each slide a `<picture>` of a crop for portrait
 * screens and the photo itself for the others, each in WebP and JPEG at the widths a page needs.
 * The answer is the same object until the source's answer or a photo changes, so the page cache
 * sees a change exactly when there is one.
 */
export function withPhotos(source: HeroSource, photos: Photos, unmade: Unmade): HeroSource {
  const slidesOf = <T extends PageSlide>(slides: T[] | null): T[] | null => {
    if (slides) photos.keep('slides', slides.map(photoAddress));
    return slides && slides.map((slide) => pictureSlide(slide, photos.of(photoAddress(slide), 'slide'), unmade));
  };
  const logoOf = (url: string | null): Pick<PageAssets, 'logoUrl' | 'logoSize'> => {
    const raster = url !== null && !isVector(url);
    photos.keep('logo', raster ? [url] : []);
    const set = raster ? photos.of(url, 'logo') : null;
    return set ? logoPicture(set) : { logoUrl: raster && unmade === 'hide' ? null : url };
  };
  // One for the page, one for /api: each gives the same object until its input or a photo changes.
  const pageSlides = remembered(photos, slidesOf<PageSlide>);
  const apiSlides = remembered(photos, slidesOf<HeroSlide>);
  const pageLogo = remembered(photos, logoOf);
  const apiLogo = remembered(photos, logoOf);
  const withPictures = (assets: PageAssets): PageAssets => ({
    heroSlides: pageSlides(assets.heroSlides),
    ...pageLogo(assets.logoUrl),
  });

  return {
    async get(): Promise<PageAssets> {
      return withPictures(await source.get());
    },
    current() {
      const assets = source.current();
      return assets && withPictures(assets);
    },
    async heroSlides() {
      const served = await source.heroSlides();
      return { ...served, value: apiSlides(served.value) ?? [] };
    },
    async logo() {
      const served = await source.logo();
      return { ...served, value: apiLogo(served.value).logoUrl };
    },
  };
}

/** `make(input)`, made again only when the input is another object or a photo has been made since. */
function remembered<I, O>(photos: Photos, make: (input: I) => O): (input: I) => O {
  let last: { input: I; version: number; output: O } | null = null;
  return (input) => {
    if (last?.input !== input || last.version !== photos.version) {
      const version = photos.version;
      last = { input, version, output: make(input) };
    }
    return last.output;
  };
}

/** The photo a slide is made from: the widest picture it names. */
export function photoAddress(slide: PageSlide): string {
  const candidates = (slide.srcset ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/))
    .filter(([address, width]) => address && /^\d+w$/.test(width ?? ''))
    .map(([address, width]) => ({ address: address!, width: parseInt(width!, 10) }))
    .sort((a, b) => b.width - a.width);
  return candidates[0]?.address ?? slide.image ?? '';
}

function pictureSlide<T extends PageSlide>(slide: T, set: PhotoSet | null, unmade: Unmade): T {
  if (!set) {
    if (unmade === 'keep') return slide;
    const { srcset: _srcset, sizes: _sizes, sources: _sources, ...rest } = slide;
    return { ...rest, image: null } as T;
  }
  const landscape = set.renditions.filter(({ crop }) => crop === 'landscape');
  const portrait = set.renditions.filter(({ crop }) => crop === 'portrait');
  const jpegs = landscape.filter(({ format }) => format === 'jpeg');
  const image = jpegs.filter(({ width }) => width <= IMAGE_WIDTH).at(-1) ?? jpegs[0]!;
  const widest = landscape.at(-1)!;
  // Cover-fitted in a box as wide as the viewport and as tall: as wide as the viewport, or wider
  // where the box is taller than the picture's shape.
  const sizes = `max(100vw, ${round((widest.width / widest.height) * 100)}vh)`;
  const portraitSizes = `max(100vw, ${round(PORTRAIT_ASPECT * 100)}vh)`;
  const sources: PictureSource[] = [];
  if (portrait.length > 0 && widest.width > widest.height) {
    const media = '(orientation: portrait)';
    sources.push({ media, type: CONTENT_TYPES.webp, srcset: srcset(portrait, 'webp'), sizes: portraitSizes });
    sources.push({ media, srcset: srcset(portrait, 'jpeg'), sizes: portraitSizes });
  }
  sources.push({ type: CONTENT_TYPES.webp, srcset: srcset(landscape, 'webp'), sizes });
  return { ...slide, image: address(image), srcset: srcset(landscape, 'jpeg'), sizes, sources };
}

/**
 * The logo's PNG at twice its height on the page, or the tallest made when the logo is smaller;
 * a smaller one is shown at half its pixels (a 64 px logo 32 px high), never enlarged past what
 * a phone's screen shows sharp.
 */
function logoPicture(set: PhotoSet): Pick<PageAssets, 'logoUrl' | 'logoSize'> {
  const pngs = set.renditions.filter(({ format }) => format === 'png');
  const png = pngs.filter(({ height }) => height <= LOGO_HEIGHT).at(-1) ?? pngs[0]!;
  if (png.height >= LOGO_HEIGHT) return { logoUrl: address(png) };
  const height = Math.max(1, Math.floor(png.height / 2));
  return {
    logoUrl: address(png),
    logoSize: { width: Math.max(1, Math.round((png.width * height) / png.height)), height },
  };
}

function srcset(renditions: StoredRendition[], format: StoredRendition['format']): string {
  return renditions
    .filter((rendition) => rendition.format === format)
    .map((rendition) => `${address(rendition)} ${rendition.width}w`)
    .join(', ');
}

function address(rendition: StoredRendition): string {
  return `${PHOTOS_PATH}/${rendition.file}`;
}

function isVector(url: string): boolean {
  return /\.svg$/i.test(new URL(url, 'http://site').pathname);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
