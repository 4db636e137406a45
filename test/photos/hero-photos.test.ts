import sharp from 'sharp';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure, HANG, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import type { HeroSlidesAnswer, LogoAnswer } from '../../shared/api.ts';
import { bootstrapOf } from '../helpers/app.ts';
import { answerNormally, backendApp, sampleSlides, tempSnapshotPath } from '../helpers/backend.ts';
import { photosOnFake } from '../helpers/photos.ts';

let fake: FakeSupabase;
beforeEach(async () => {
  fake = await startFakeSupabase();
  answerNormally(fake);
  await photosOnFake(fake);
  // Vienna's file is the stand-in's stub, a PNG of 1 × 1 pixel: too small to show.
  const logo = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#f5b70080' } })
    .png()
    .toBuffer();
  fake.objects.set('logo/logo-3d-white-on-blue.png', { body: logo, contentType: 'image/png' });
});
afterEach(() => fake.close());

const EN = 'selectedLanguage=en';

/** /api/hero-slides once the pictures of the logo and of every slide that can have one are made. */
async function slidesOnceMade(app: Parameters<typeof request>[0], withPicture: number) {
  for (let tries = 0; tries < 300; tries++) {
    const { body } = (await request(app).get('/api/hero-slides')) as { body: HeroSlidesAnswer };
    const logo = (await request(app).get('/api/logo')) as { body: LogoAnswer };
    if (body.heroSlides.filter((slide) => slide.image).length >= withPicture && logo.body.url) return body.heroSlides;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${withPicture} slides, or no logo, got a picture`);
}

describe("the backend's hero photos, made by the server", () => {
  it('show the gradient until made, then come from this origin as a picture for portrait and other screens', async () => {
    const { app } = await backendApp(fake, { photos: true });
    const first = await request(app).get('/').set('Cookie', EN).expect(200);
    const before = bootstrapOf(first.text).app;
    expect(before.heroSlides!.map((slide) => slide.image)).toEqual([null, null, null]);
    expect(before.logoUrl).toBeNull();
    expect(first.text).not.toMatch(/class="hero__slide[ "]/);
    expect(first.text).not.toContain(fake.url);

    const slides = await slidesOnceMade(app, 2);
    const [munich, marbella, vienna] = slides;
    // Vienna's photo cannot be decoded: its slide keeps its studio and shows the gradient.
    expect(vienna).toEqual({ image: null, studio: 'Studio Wien' });
    expect(marbella!.image).toMatch(/^\/images\/photos\/[\w-]{22}-l640\.jpg$/);
    expect(munich).toMatchObject({
      studio: 'Studio München',
      image: expect.stringMatching(/^\/images\/photos\/[\w-]{22}-l640\.jpg$/),
      srcset: expect.stringMatching(
        /^\/images\/photos\/[\w-]{22}-l480\.jpg 480w, \/images\/photos\/[\w-]{22}-l640\.jpg 640w$/,
      ),
      sizes: 'max(100vw, 177.78vh)',
      sources: [
        {
          media: '(orientation: portrait)',
          type: 'image/webp',
          srcset: expect.stringMatching(/-p202\.webp 202w$/),
          sizes: 'max(100vw, 56.25vh)',
        },
        {
          media: '(orientation: portrait)',
          srcset: expect.stringMatching(/-p202\.jpg 202w$/),
          sizes: 'max(100vw, 56.25vh)',
        },
        {
          type: 'image/webp',
          srcset: expect.stringMatching(/-l480\.webp 480w, .*-l640\.webp 640w$/),
          sizes: 'max(100vw, 177.78vh)',
        },
      ],
    });

    const page = await request(app).get('/').set('Cookie', EN).expect(200);
    const data = bootstrapOf(page.text).app;
    expect(data.heroSlides).toEqual(slides);
    expect(data.logoUrl).toMatch(/^\/images\/photos\/[\w-]{22}-o64\.png$/);
    expect(page.text).toMatch(
      /<picture><source srcSet="[^"]+-p202\.webp 202w" sizes="max\(100vw, 56\.25vh\)" type="image\/webp" media="\(orientation: portrait\)"\/>/,
    );
    // The first slide's picture for each kind of screen is preloaded, as the <picture> chooses it.
    const preloads = page.text.match(/<link rel="preload" as="image"[^>]*>/g)!;
    expect(preloads).toHaveLength(2);
    expect(preloads[0]).toMatch(
      /imageSrcSet="[^"]+-p202\.webp 202w" imageSizes="max\(100vw, 56\.25vh\)" media="\(orientation: portrait\)"/,
    );
    expect(preloads[1]).toMatch(
      /imageSrcSet="[^"]+-l480\.webp 480w, [^"]+-l640\.webp 640w" imageSizes="max\(100vw, 177\.78vh\)" media="not all and \(orientation: portrait\)"/,
    );
    for (const preload of preloads) expect(preload).toContain('type="image/webp" fetchPriority="low"');
    expect(page.text).not.toContain(fake.url);
  });

  it('are served with a year of immutable caching and a validator, and nothing else under their path', async () => {
    const { app } = await backendApp(fake, { photos: true });
    await request(app).get('/').set('Cookie', EN);
    const [munich] = await slidesOnceMade(app, 2);
    const webp = munich!.sources![2]!.srcset.split(' ')[0]!;
    const res = await request(app).get(webp).expect(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(res.body as Buffer).metadata()).format).toBe('webp');
    await request(app).get(webp).set('If-None-Match', res.headers.etag!).expect(304);
    await request(app).head(webp).expect(200);
    await request(app).get('/images/photos/AAAAAAAAAAAAAAAAAAAAAA-l480.webp').expect(404);
    await request(app).get('/images/photos/index.json').expect(404);
    await request(app).get('/images/photos/..%2F..%2Fpackage.json').expect(404);
  });

  it('outlive a backend outage and a restart: the new server shows and serves the last good ones at once', async () => {
    const snapshotPath = tempSnapshotPath();
    const { app } = await backendApp(fake, { photos: true, snapshotPath });
    await request(app).get('/').set('Cookie', EN);
    const made = await slidesOnceMade(app, 2);

    fake.reply.heroImages = failure(503);
    fake.reply.logoList = failure(503);
    for (const name of ['hero/munich.jpg', 'hero/marbella.jpg', 'logo/logo-3d-white-on-blue.png'])
      fake.objects.set(name, HANG);
    const restarted = await backendApp(fake, { photos: true, snapshotPath });
    const page = await request(restarted.app).get('/').set('Cookie', EN).expect(200);
    expect(bootstrapOf(page.text).app.heroSlides).toEqual(made);
    await request(restarted.app).get(made[0]!.image!).expect(200);
    expect(bootstrapOf(page.text).app.logoUrl).toMatch(/-o64\.png$/);
  });

  it('are the same addresses on every replica, made from the same photo', async () => {
    const one = await backendApp(fake, { photos: true });
    const other = await backendApp(fake, { photos: true });
    await request(one.app).get('/api/hero-slides');
    await request(other.app).get('/api/hero-slides');
    expect(await slidesOnceMade(one.app, 2)).toEqual(await slidesOnceMade(other.app, 2));
    expect(sampleSlides(fake).length).toBe(3);
  });
});
