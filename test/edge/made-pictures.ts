import sharp from 'sharp';
import type { HeroSlidesAnswer, LogoAnswer } from '../../shared/api.ts';
import { PHOTOS_PATH } from '../../server/photos/photo-route.ts';
import { startServer } from '../../scripts/harness/server-process.ts';
import { decoded, get, wait } from './visitors.ts';

/** A logo as an editor exports it, half transparent: 64 × 64 PNG. */
export function smallLogo(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 4, background: '#f5b70080' } })
    .png()
    .toBuffer();
}

const isMade = (address: string | null | undefined) => !!address?.startsWith(`${PHOTOS_PATH}/`);

/**
 * Has a server of its own make the pictures of every slide and of the logo in PHOTOS_PATH, and
 * stops it: a server started on that folder names them from its first answer. Returns its /api
 * answers (identity coding), which that server gives too.
 */
export async function makePictures(env: NodeJS.ProcessEnv & { PHOTOS_PATH: string }) {
  const maker = await startServer(env);
  try {
    return await madeAnswers(maker.url);
  } finally {
    await maker.stop();
  }
}

/** The server's own /api answers once it names its pictures: asking for them is what makes them. */
async function madeAnswers(origin: string): Promise<{ heroSlides: Buffer; logo: Buffer }> {
  for (let tries = 0; tries < 300; tries++) {
    const heroSlides = decoded(await get(`${origin}/api/hero-slides`));
    const logo = decoded(await get(`${origin}/api/logo`));
    const slides = (JSON.parse(heroSlides.toString()) as HeroSlidesAnswer).heroSlides;
    if (
      slides.length > 0 &&
      slides.every((slide) => isMade(slide.image)) &&
      isMade((JSON.parse(logo.toString()) as LogoAnswer).url)
    )
      return { heroSlides, logo };
    await wait(100);
  }
  throw new Error('the server made no pictures of every slide and the logo within 30 s');
}
