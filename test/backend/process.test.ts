import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import type { HeroSlidesAnswer } from '../../shared/api.ts';
import { smallPhoto } from '../helpers/photos.ts';
import { answerNormally, sampleSlides, snapshotWith, tempSnapshotPath } from '../helpers/backend.ts';
import { failure, HANG, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { runUntilExit, startServer } from '../../scripts/harness/server-process.ts';

describe.concurrent('starting with a backend configuration it cannot use', () => {
  // test.for hands each case its own expect, as concurrent tests need.
  it.for<[string, NodeJS.ProcessEnv, string | RegExp]>([
    ['only SUPABASE_URL', { SUPABASE_URL: 'https://abcdefgh.supabase.co' }, 'Cannot start: supabaseKey is required.'],
    ['only SUPABASE_ANON_KEY', { SUPABASE_ANON_KEY: 'some-key' }, 'Cannot start: supabaseUrl is required.'],
    [
      'an address without a scheme',
      { SUPABASE_URL: 'abcdefgh.supabase.co', SUPABASE_ANON_KEY: 'some-key' },
      /^Cannot start: Invalid SUPABASE_URL: must be an http:\/\/ or https:\/\/ address/,
    ],
    [
      'several bad variables',
      { PORT: 'eighty', LOG_LEVEL: 'loud', SUPABASE_ANON_KEY: 'some-key' },
      /^Cannot start: Invalid PORT: [^;]+; Invalid LOG_LEVEL: [^;]+; supabaseUrl is required\.$/,
    ],
  ])('%s: refuses, exiting non-zero with one line', async ([, env, message], { expect }) => {
    const exited = await runUntilExit(env);
    expect(exited.code).not.toBe(0);
    expect(exited.code).not.toBeNull();
    const lines = exited.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    if (typeof message === 'string') expect(lines[0]).toBe(message);
    else expect(lines[0]).toMatch(message);
    expect(exited.stdout).not.toMatch(/listening/);
  });
});

describe('the built server with a backend', () => {
  let fake: FakeSupabase;
  beforeEach(async () => {
    fake = await startFakeSupabase();
    answerNormally(fake);
  });
  afterEach(() => fake.close());

  it('restarted during an outage, still serves the last good slides and their pictures from its snapshot', async () => {
    for (const slide of sampleSlides(fake))
      fake.objects.set(`hero/${slide.image.split('/').at(-1)!}`, {
        body: await smallPhoto(),
        contentType: 'image/jpeg',
      });
    // Fresh for 1 s: by the time the second server asks, the saved answers are past stale-while-revalidate.
    const snapshotPath = tempSnapshotPath();
    const env = {
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: fake.key,
      CACHE_SNAPSHOT_PATH: snapshotPath,
      PHOTOS_PATH: path.join(path.dirname(snapshotPath), 'photos'),
      UPSTREAM_TIMEOUT_MS: '1000',
      CACHE_FRESH_SECONDS: '1',
    };
    const first = await startServer(env);
    let good: request.Response;
    try {
      // Once the server has made its pictures of the three photos.
      for (;;) {
        good = await request(first.url).get('/api/hero-slides').expect(200);
        const { heroSlides } = good.body as HeroSlidesAnswer;
        if (heroSlides.every((slide) => slide.image?.startsWith('/images/photos/'))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await request(first.url).get('/api/logo').expect(200);
      await snapshotWith(env.CACHE_SNAPSHOT_PATH, ['hero-slides', 'logo']);
    } finally {
      await first.stop();
    }
    const saved = await snapshotWith(env.CACHE_SNAPSHOT_PATH, ['hero-slides', 'logo']);

    fake.reply.heroImages = failure(503);
    fake.reply.logoList = HANG;
    for (const slide of sampleSlides(fake)) fake.objects.set(`hero/${slide.image.split('/').at(-1)!}`, HANG);
    const second = await startServer(env);
    try {
      const pastWindow = saved.entries['hero-slides']!.fetchedAt + 2100 - Date.now();
      if (pastWindow > 0) await new Promise((resolve) => setTimeout(resolve, pastWindow));
      const slides = await request(second.url).get('/api/hero-slides').expect(200);
      expect(slides.headers['cache-status']).toMatch(/^landing; hit; ttl=-\d+$/);
      expect(slides.text).toBe(good.text);
      await fake.received('heroImages', 2); // it did ask the backend, which failed
      const page = await request(second.url).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
      const picture = (good.body as HeroSlidesAnswer).heroSlides[0]!.image!;
      expect(page.text).toContain(`<img class="hero__slide is-active" src="${picture}"`);
      await request(second.url).get(picture).expect(200).expect('Content-Type', 'image/jpeg');
      expect(page.text).toContain('data-testid="studio-label">Studio München</p>');
      expect(page.text).not.toContain(fake.key);
      expect(second.logs.find((line) => line.msg === 'backend call failed')).toMatchObject({
        endpoint: 'hero-slides',
        serving: 'last good answer',
      });
    } finally {
      await second.stop();
    }
  });
});

describe('the browser bundle', () => {
  it('carries no supabase-js and no backend address or key', () => {
    const scripts = readdirSync(path.join(CLIENT_BUILD_DIR, 'assets')).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = readFileSync(path.join(CLIENT_BUILD_DIR, 'assets', file), 'utf8');
      expect(code).not.toMatch(/supabase|apikey|functions\/v1|storage\/v1|GoTrue|realtime/i);
    }
  });
});
