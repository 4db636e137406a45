import path from 'node:path';
import sharp from 'sharp';
import { PUBLIC_DIR } from '../../server/config/paths.ts';

/** The studios whose slides the backend serves, one photo each. */
export const STUDIOS = ['munich', 'marbella', 'vienna', 'zurich'] as const;
export type Studio = (typeof STUDIOS)[number];

const WIDTH = 1920;
const HEIGHT = 1080;
const QUALITY = 90;
/**
 * The grain's strength: the shipped drawings are flat colour, and a photo's fine detail is what
 * makes its JPEG large. At this strength each studio's photo is 615–650 KB, as a camera's or a
 * designer's 1920 × 1080 export at quality 90 is.
 */
const GRAIN = 14.5;

/**
 * A studio's photo as a camera or a designer exports it: 1920 × 1080, JPEG at quality 90, about
 * 630 KB. Made of the shipped slide with grain from a seeded generator, so every run serves the
 * same bytes.
 */
export async function cameraPhoto(studio: Studio): Promise<Buffer> {
  const { data, info } = await sharp(path.join(PUBLIC_DIR, 'images/hero', `${studio}-2400.jpg`))
    .resize(WIDTH, HEIGHT)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const random = seededRandom(STUDIOS.indexOf(studio) + 1);
  for (let i = 0; i < data.length; i += 3) {
    // Grain on the brightness, and a weaker one on each colour, as a sensor's noise has.
    const grain = (random() + random() + random() - 1.5) * GRAIN;
    for (let channel = 0; channel < 3; channel++) {
      data[i + channel] = clamp(data[i + channel]! + grain + (random() - 0.5) * GRAIN * 0.5);
    }
  }
  return sharp(data, { raw: info }).jpeg({ quality: QUALITY }).toBuffer();
}

/** The backend's logo as an editor uploads it: a 64 × 64 PNG, smaller than the page shows it. */
export function backendLogo(): Promise<Buffer> {
  return sharp(path.join(PUBLIC_DIR, 'favicon.svg')).resize(64, 64).png().toBuffer();
}

/** mulberry32: a small generator whose sequence depends on the seed alone. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function clamp(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}
