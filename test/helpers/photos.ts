import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PUBLIC_DIR } from '../../server/config/paths.ts';
import type { FakeSupabase } from '../../scripts/harness/fake-supabase.ts';

/** A photo as an editor exports it: the shipped Munich slide, 1600 × 900 JPEG. */
export const PHOTO = readFileSync(path.join(PUBLIC_DIR, 'images/hero/munich-1600.jpg'));

/** A small JPEG, quick to make pictures of: 640 × 360, a gradient. */
export function smallPhoto(colour = '#1746a2'): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 360, channels: 3, background: colour } })
    .composite([{ input: Buffer.from(GRADIENT), blend: 'over' }])
    .jpeg()
    .toBuffer();
}
const GRADIENT = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="0.6"/><stop offset="1" stop-color="#000" stop-opacity="0.6"/></linearGradient></defs><rect width="640" height="360" fill="url(#g)"/></svg>`;

/** Munich's and Marbella's slides on the fake backend as small photos (its own stand-ins are 1 × 1 pixel). */
export async function photosOnFake(fake: FakeSupabase): Promise<void> {
  fake.objects.set('hero/munich.jpg', { body: await smallPhoto('#223344'), contentType: 'image/jpeg' });
  fake.objects.set('hero/marbella.jpg', { body: await smallPhoto('#443322'), contentType: 'image/jpeg' });
}

/**
 * A decompression bomb: a PNG of 10,000 × 10,000 pixels of one colour, a few hundred kilobytes on
 * the wire and 300 MB once decoded; within sharp's own default limit (268 megapixels), so only
 * the server's limit refuses it.
 */
export function decompressionBomb(): Promise<Buffer> {
  return sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000' }, limitInputPixels: false })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Width, height and format of a picture, read back as a browser would decode it. */
export async function pictureOf(bytes: Buffer) {
  const { width, height, format, exif, hasAlpha } = await sharp(bytes).metadata();
  return { width, height, format, exif, hasAlpha };
}
