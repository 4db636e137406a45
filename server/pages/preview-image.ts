import type { PageAssets, PageSlide } from '../../shared/page-data.ts';
import { absoluteUrl } from '../discovery/public-urls.ts';
import { renditionOfFile } from '../photos/photo-store.ts';
import { PHOTOS_PATH } from '../photos/photo-route.ts';

/** The picture a link preview shows, and what the page data tells of it. */
export interface PreviewImage {
  /** Absolute, on the public origin. */
  url: string;
  type?: string;
  width?: number;
  height?: number;
}

/**
 * Link previews want a picture about 1200 pixels wide (Facebook's 1200 × 630, X's large card): the
 * server's 1280-wide rendition, or the widest below it when the photo is smaller.
 */
export const PREVIEW_WIDTH = 1280;

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
};

/**
 * The first hero slide, else the logo: whatever the page shows first, from this request's data.
 * Of a slide whose pictures this server made, the landscape JPEG nearest PREVIEW_WIDTH from below
 * (not every crawler takes WebP); of any other, its image as given.
 */
export function previewImage(assets: PageAssets, publicOrigin: string): PreviewImage | null {
  const slide = assets.heroSlides?.[0];
  const made = slide ? madeJpeg(slide) : null;
  if (made) return { ...made, url: absoluteUrl(publicOrigin, made.url) };
  const address = slide?.image ?? assets.logoUrl;
  if (!address) return null;
  const width = slide?.image ? candidates(slide).find((candidate) => candidate.address === address)?.width : undefined;
  const type = TYPES[/\.(\w+)$/.exec(new URL(address, 'http://site').pathname)?.[1]?.toLowerCase() ?? ''];
  return { url: absoluteUrl(publicOrigin, address), ...(type ? { type } : {}), ...(width ? { width } : {}) };
}

interface Candidate {
  address: string;
  width: number;
  /** The `sizes` of the list that offers it. */
  sizes?: string;
}

/** Every picture a slide offers with its width: the image's srcset and each `<source>`'s. */
function candidates(slide: PageSlide): Candidate[] {
  const lists = [{ srcset: slide.srcset ?? '', sizes: slide.sizes }, ...(slide.sources ?? [])];
  return lists.flatMap(({ srcset, sizes }) =>
    srcset
      .split(',')
      .map((candidate) => candidate.trim().split(/\s+/))
      .filter(([address, width]) => address && /^\d+w$/.test(width ?? ''))
      .map(([address, width]) => ({ address: address!, width: parseInt(width!, 10), ...(sizes ? { sizes } : {}) })),
  );
}

/** The slide's landscape JPEG made here for a preview, by its name; null where it has none. */
function madeJpeg(slide: PageSlide): PreviewImage | null {
  const jpegs = candidates(slide)
    .filter(({ address }) => {
      const made = address.startsWith(`${PHOTOS_PATH}/`)
        ? renditionOfFile(address.slice(PHOTOS_PATH.length + 1))
        : null;
      return made?.crop === 'landscape' && made.format === 'jpeg';
    })
    .sort((a, b) => a.width - b.width);
  const chosen = jpegs.filter(({ width }) => width <= PREVIEW_WIDTH).at(-1) ?? jpegs[0];
  if (!chosen) return null;
  const aspect = chosen.sizes ? coverAspect(chosen.sizes) : null;
  return {
    url: chosen.address,
    type: 'image/jpeg',
    width: chosen.width,
    ...(aspect ? { height: Math.round(chosen.width / aspect) } : {}),
  };
}

/**
 * Width over height of the picture, from the `sizes` of a picture cover-fitted in the viewport:
 * `max(100vw, <width / height × 100>vh)`. Rounded there to a hundredth of a percent, the height
 * it gives may differ from the picture's by a pixel at most.
 */
function coverAspect(sizes: string): number | null {
  const match = /^max\(100vw, (\d+(?:\.\d+)?)vh\)$/.exec(sizes.trim());
  return match ? Number(match[1]) / 100 : null;
}
