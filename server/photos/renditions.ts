/**
 * Which pictures the page needs of a photo, and in which formats: pure arithmetic on the
 * photo's size, so that encode.ts only carries it out.
 *
 * - A slide fills the hero, a box as wide as the viewport and at least as tall, with
 *   `object-fit: cover`: on a landscape screen the photo as it is, at the widths below; on a
 *   portrait screen (a phone held upright) a crop at PORTRAIT_ASPECT, so that the phone does not
 *   fetch a landscape photo several times its width to show a slice of it.
 * - The logo is shown 72 CSS pixels high: it is made at that height for screens of density 1, 2
 *   and 3, with its transparency.
 * Nothing is enlarged: a width the photo does not have is left out, and the photo's own width
 * (or the crop's) is made instead when it falls between two.
 */

export type PhotoKind = 'slide' | 'logo';
/** How a rendition is cut from the photo. */
export type Crop = 'landscape' | 'portrait' | 'logo';
export type PhotoFormat = 'webp' | 'jpeg' | 'png';

export const LANDSCAPE_WIDTHS = [480, 720, 960, 1280, 1920] as const;
export const PORTRAIT_WIDTHS = [360, 540, 720, 1080] as const;
/** Width over height of a slide's crop for portrait screens: 9:16, a phone's screen with its bars. */
export const PORTRAIT_ASPECT = 9 / 16;
/** The logo's height on the page (`.logo`, 4.5rem), at densities 1, 2 and 3. */
export const LOGO_HEIGHTS = [72, 144, 216] as const;

/** A modern format first, then the fallback every browser shows: JPEG for photos, PNG for a logo's transparency. */
export const FORMATS: Record<PhotoKind, readonly PhotoFormat[]> = {
  slide: ['webp', 'jpeg'],
  logo: ['webp', 'png'],
};

export const CONTENT_TYPES: Record<PhotoFormat, string> = {
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export interface RenditionPlan {
  crop: Crop;
  width: number;
  height: number;
}

/** The renditions of a photo `width` × `height` (after its EXIF orientation), smallest first per crop. */
export function planRenditions(kind: PhotoKind, width: number, height: number): RenditionPlan[] {
  if (kind === 'logo') {
    return fitting(LOGO_HEIGHTS, height).map((h) => ({
      crop: 'logo',
      width: Math.max(1, Math.round((width * h) / height)),
      height: h,
    }));
  }
  const landscape = fitting(LANDSCAPE_WIDTHS, width).map((w) => ({
    crop: 'landscape' as const,
    width: w,
    height: Math.max(1, Math.round((height * w) / width)),
  }));
  // The widest crop at PORTRAIT_ASPECT the photo holds.
  const cropWidth = Math.min(width, Math.floor(height * PORTRAIT_ASPECT));
  const portrait = fitting(PORTRAIT_WIDTHS, cropWidth).map((w) => ({
    crop: 'portrait' as const,
    width: w,
    height: Math.round(w / PORTRAIT_ASPECT),
  }));
  return [...landscape, ...portrait];
}

/** The sizes up to `available`, and `available` itself where it is larger than the largest of those it reaches. */
function fitting(sizes: readonly number[], available: number): number[] {
  const fit = sizes.filter((size) => size <= available);
  const next = sizes.find((size) => size > available);
  if (next !== undefined && available > (fit.at(-1) ?? 0) && available >= 16) fit.push(available);
  return fit;
}
