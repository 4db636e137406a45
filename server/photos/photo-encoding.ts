import type { Crop, PhotoFormat, PhotoKind } from './renditions.ts';

/*
 * What making a photo's pictures takes and gives, without sharp: the server imports
 * this, and only the encoder's process (encoder-process.ts) loads sharp.
 */

export interface EncodeLimits {
  /**
   * Width × height above which a photo is refused before it is decoded (a decompression bomb):
   * one figure for JPEG, which libvips shrinks while decoding and reads as a stream, and one for
   * every other format, which may be decoded whole.
   */
  maxPixels: { jpeg: number; other: number };
}

/** A 50-megapixel camera's JPEG; any other format up to 4096 × 4096 (48 MiB decoded at most). */
export const PIXEL_LIMITS: EncodeLimits['maxPixels'] = { jpeg: 50_000_000, other: 4096 * 4096 };

export interface Rendition {
  crop: Crop;
  format: PhotoFormat;
  width: number;
  height: number;
  bytes: Buffer;
}

/** Every rendition of one photo the page needs; rejects with a PhotoError when the photo cannot be used. */
export type EncodePhoto = (input: Buffer, kind: PhotoKind) => Promise<Rendition[]>;

/** The photo cannot be used; the message says why, in one line. */
export class PhotoError extends Error {
  override name = 'PhotoError';
}
