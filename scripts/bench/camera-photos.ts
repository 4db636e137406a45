import path from 'node:path';
import sharp, { type OutputInfo } from 'sharp';
import { PUBLIC_DIR } from '../../server/config/paths.ts';

/** The studios whose slides the backend serves, one photo each. */
export const STUDIOS = ['munich', 'marbella', 'vienna', 'zurich'] as const;
export type Studio = (typeof STUDIOS)[number];

const WIDTH = 1920;
const HEIGHT = 1080;
const QUALITY = 90;
/** A dim studio: the scene at this share of the shipped slide's brightness. */
const EXPOSURE = 0.6;
/**
 * The sensor's noise at the high sensitivity a dim studio needs, as standard deviations in levels
 * of 255: on the brightness, and on each colour on its own. The shipped drawings are flat colour,
 * and this grain is what makes a camera's photo large: each studio's JPEG is 760–780 KB.
 */
const BRIGHTNESS_NOISE = 10;
const COLOUR_NOISE = 6;

/** A studio's scene as a dim studio lights it: the shipped slide, darkened, 1920 × 1080, without grain. */
export async function studioScene(studio: Studio): Promise<{ data: Buffer; info: OutputInfo }> {
  return sharp(path.join(PUBLIC_DIR, 'images/hero', `${studio}-2400.jpg`))
    .resize(WIDTH, HEIGHT)
    .removeAlpha()
    .linear(EXPOSURE, 0)
    .raw()
    .toBuffer({ resolveWithObject: true });
}

/**
 * A studio's photo as a camera in a dim studio exports it: 1920 × 1080, JPEG at quality 90,
 * about 770 KB. The studio's scene with sensor noise from a seeded generator, so every run serves
 * the same bytes.
 */
export async function cameraPhoto(studio: Studio): Promise<Buffer> {
  const { data, info } = await studioScene(studio);
  const random = seededRandom(STUDIOS.indexOf(studio) + 1);
  // Close to a normal distribution of deviation 1: the sum of four uniform draws, centred and scaled.
  const normal = () => (random() + random() + random() + random() - 2) * Math.sqrt(3);
  for (let i = 0; i < data.length; i += 3) {
    const brightness = normal() * BRIGHTNESS_NOISE;
    for (let channel = 0; channel < 3; channel++) {
      data[i + channel] = clamp(data[i + channel]! + brightness + normal() * COLOUR_NOISE);
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
