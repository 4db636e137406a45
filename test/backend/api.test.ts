import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBody } from '../../scripts/harness/content-coding.ts';
import { bootstrapOf, rawGet } from '../helpers/app.ts';
import { answerNormally, backendApp, publicLogoUrl, sampleSlides } from '../helpers/backend.ts';
import {
  fileEntry,
  folderEntry,
  json,
  startFakeSupabase,
  type FakeSupabase,
} from '../../scripts/harness/fake-supabase.ts';

let fake: FakeSupabase;
beforeEach(async () => {
  fake = await startFakeSupabase();
  answerNormally(fake);
});
afterEach(() => fake.close());

const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60, stale-if-error=86400';

describe('GET /api/hero-slides and /api/logo with a healthy backend', () => {
  it('answers the slides and the preferred logo through supabase-js, with the key', async () => {
    const { app } = await backendApp(fake);
    const slides = await request(app).get('/api/hero-slides').expect(200);
    expect(slides.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(slides.body).toEqual({ heroSlides: sampleSlides(fake) });
    const logo = await request(app).get('/api/logo').expect(200);
    expect(logo.body).toEqual({ url: publicLogoUrl(fake) });

    const [invoke, list] = [
      fake.requests.find((r) => r.route === 'heroImages')!,
      fake.requests.find((r) => r.route === 'logoList')!,
    ];
    expect(invoke.method).toBe('POST');
    expect(invoke.headers.apikey).toBe(fake.key);
    expect(invoke.headers['x-client-info']).toMatch(/^supabase-js-node\/2\.119|^supabase-js\/2\.119/);
    expect(JSON.parse(list.body)).toMatchObject({ limit: 100, prefix: '' });
    expect(list.headers.apikey).toBe(fake.key);
  });

  it('takes the first file listed when the preferred one is missing, skipping folders and placeholders', async () => {
    fake.reply.logoList = json([
      folderEntry('archive'),
      fileEntry('.emptyFolderPlaceholder'),
      fileEntry('brand mark.png'),
      fileEntry('z.png'),
    ]);
    const { app } = await backendApp(fake);
    const logo = await request(app).get('/api/logo').expect(200);
    expect(logo.body).toEqual({ url: publicLogoUrl(fake, 'brand%20mark.png') });
  });

  it('honours LOGO_FILE_NAME', async () => {
    const { app } = await backendApp(fake, { env: { LOGO_FILE_NAME: 'a-first.png' } });
    expect((await request(app).get('/api/logo')).body).toEqual({ url: publicLogoUrl(fake, 'a-first.png') });
  });

  it('sends the CDN headers: public, the remaining freshness and no Age, Cache-Status, a content-hash ETag, Vary: Accept-Encoding only, no cookie', async () => {
    const { app, clock } = await backendApp(fake);
    for (const path of ['/api/hero-slides', '/api/logo']) {
      const first = await request(app).get(path).expect(200);
      expect(first.headers['cache-control']).toBe(CACHE_CONTROL);
      expect(first.headers.age).toBeUndefined();
      expect(first.headers['cache-status']).toBe('landing; fwd=miss; stored');
      expect(first.headers.vary).toBe('Accept-Encoding');
      expect(first.headers['set-cookie']).toBeUndefined();
      expect(first.headers.etag).toMatch(/^W\/"[\w-]{27}"$/);
      expect(first.headers['cache-control']).not.toMatch(/s-maxage|private|no-store/);
    }
    clock.advance(25);
    const later = await request(app).get('/api/hero-slides?lng=en').set('Cookie', 'selectedLanguage=en').expect(200);
    expect(later.headers['cache-status']).toBe('landing; hit; ttl=35');
    expect(later.headers.age).toBeUndefined();
    expect(later.headers['cache-control']).toBe('public, max-age=35, stale-while-revalidate=60, stale-if-error=86400');
    expect(later.headers['set-cookie']).toBeUndefined();
    expect(fake.calls).toMatchObject({ heroImages: 1, logoList: 1 });
  });

  it('takes CACHE_FRESH_SECONDS and CACHE_STALE_SECONDS into the header', async () => {
    const { app } = await backendApp(fake, { env: { CACHE_FRESH_SECONDS: '30', CACHE_STALE_SECONDS: '600' } });
    const res = await request(app).get('/api/logo');
    expect(res.headers['cache-control']).toBe('public, max-age=30, stale-while-revalidate=30, stale-if-error=600');
  });

  it('answers 304 to a matching If-None-Match, with the headers a 200 would carry', async () => {
    const { app } = await backendApp(fake);
    const first = await request(app).get('/api/hero-slides');
    const etag = first.headers.etag!;
    for (const condition of [etag, etag.replace(/^W\//, ''), `"other", ${etag}`, '*']) {
      const res = await request(app).get('/api/hero-slides').set('If-None-Match', condition).expect(304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
      expect(res.headers.vary).toBe('Accept-Encoding');
    }
    await request(app).get('/api/hero-slides').set('If-None-Match', '"something-else"').expect(200);
  });

  it('gives the same ETag on every replica for the same data, and a new one for new data', async () => {
    const replicaA = await backendApp(fake);
    const replicaB = await backendApp(fake);
    const a = await request(replicaA.app).get('/api/hero-slides');
    const b = await request(replicaB.app).get('/api/hero-slides');
    expect(a.headers.etag).toBe(b.headers.etag);
    expect((await request(replicaA.app).get('/api/logo')).headers.etag).toBe(
      (await request(replicaB.app).get('/api/logo')).headers.etag,
    );

    fake.reply.heroImages = json({ heroSlides: sampleSlides(fake).slice(1) });
    const replicaC = await backendApp(fake);
    expect((await request(replicaC.app).get('/api/hero-slides')).headers.etag).not.toBe(a.headers.etag);
  });

  it('keeps a weak ETag when the body is compressed, so gzip and identity never share a strong one', async () => {
    const many = Array.from({ length: 20 }, (_, i) => ({
      image: fake.image(`studio-${i}.jpg`),
      studio: `Studio number ${i}`,
    }));
    answerNormally(fake, many);
    const { app } = await backendApp(fake);
    const gzip = await request(app).get('/api/hero-slides').set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const identity = await request(app).get('/api/hero-slides').set('Accept-Encoding', 'identity').expect(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers.etag).toMatch(/^W\//);
    expect(gzip.headers.etag).toBe(identity.headers.etag);
    expect(gzip.body).toEqual(identity.body);
    await request(app)
      .get('/api/hero-slides')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', gzip.headers.etag!)
      .expect(304);
  });

  it('sends bytes compressed once for each answer: brotli or gzip as accepted, with their length', async () => {
    const { app } = await backendApp(fake);
    const expected = { heroSlides: sampleSlides(fake) };
    const br1 = await rawGet(app, '/api/hero-slides', { 'accept-encoding': 'gzip, deflate, br' });
    const br2 = await rawGet(app, '/api/hero-slides', { 'accept-encoding': 'br' });
    expect(br1.headers['content-encoding']).toBe('br');
    expect(br1.headers['content-length']).toBe(String(br1.body.length));
    expect(JSON.parse(decodeBody(br1.body, 'br').toString())).toEqual(expected);
    expect(br2.body.equals(br1.body)).toBe(true);
    const gzip = await rawGet(app, '/api/hero-slides', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decodeBody(gzip.body, 'gzip').toString())).toEqual(expected);
    const plain = await rawGet(app, '/api/hero-slides');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(expected);
    for (const answer of [br1, gzip, plain]) expect(answer.headers.vary).toBe('Accept-Encoding');
  });

  it('tells the cache observer how each answer was served', async () => {
    const { app, clock, record } = await backendApp(fake);
    await request(app).get('/api/hero-slides');
    await request(app).get('/api/hero-slides');
    await request(app).get('/api/logo');
    clock.advance(61);
    await request(app).get('/api/logo');
    expect(record.served).toEqual(['hero-slides:miss', 'hero-slides:hit', 'logo:miss', 'logo:stale']);
    expect(record.upstreamErrors).toEqual([]);
  });

  it('answers other /api paths and methods without a page or a cookie', async () => {
    const { app } = await backendApp(fake);
    const missing = await request(app).get('/api/nothing?lng=en').expect(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
    expect(missing.headers['set-cookie']).toBeUndefined();
    const post = await request(app).post('/api/hero-slides').expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(fake.calls.heroImages).toBe(0);
  });
});

describe('the page with a healthy backend', () => {
  it('shows the first slide, its studio and the logo in the first HTML, preloading the slide', async () => {
    const { app } = await backendApp(fake);
    const res = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    const [first] = sampleSlides(fake);
    // Preloaded from the head, at low priority: the text and the script come first.
    expect(res.text).toContain(`<link rel="preload" href="${first!.image}" as="image" fetchPriority="low"/>`);
    expect(res.text).toMatch(new RegExp(`<img class="hero__slide is-active" src="${first!.image}"`));
    expect(res.text).toContain('<p class="hero__studio" data-testid="studio-label">Studio München</p>');
    expect(res.text).toContain(`<img class="logo" src="${publicLogoUrl(fake)}"`);
    expect(res.text).not.toContain('<p class="hero__studio">Loading studios...</p>');
    expect(bootstrapOf(res.text).app).toMatchObject({ heroSlides: sampleSlides(fake), logoUrl: publicLogoUrl(fake) });
  });

  it('serves the page and /api from one cache: one call each for both', async () => {
    const { app } = await backendApp(fake);
    await request(app).get('/').expect(200);
    await request(app).get('/impressum').expect(200);
    const api = await request(app).get('/api/hero-slides');
    expect(api.headers['cache-status']).toBe('landing; hit; ttl=60');
    expect(fake.calls).toMatchObject({ heroImages: 1, logoList: 1 });
  });

  it('never puts the key in the HTML or the JSON', async () => {
    const { app } = await backendApp(fake);
    for (const path of ['/', '/impressum', '/api/hero-slides', '/api/logo']) {
      const res = await request(app).get(path);
      expect(res.text).not.toContain(fake.key);
      expect(JSON.stringify(res.headers)).not.toContain(fake.key);
    }
  });

  it('shows a known empty list as no slides and no label, and the default logo for an empty bucket', async () => {
    fake.reply.heroImages = json({ heroSlides: [] });
    fake.reply.logoList = json([]);
    const { app } = await backendApp(fake);
    const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    expect(page.text).toContain('hero__slides--empty');
    expect(page.text).not.toContain('class="hero__studio');
    expect(page.text).toContain(`<img class="logo" src="${publicLogoUrl(fake)}"`);
    expect(bootstrapOf(page.text).app).toMatchObject({ heroSlides: [], logoUrl: publicLogoUrl(fake) });
    const api = await request(app).get('/api/hero-slides').expect(200);
    expect(api.body).toEqual({ heroSlides: [] });
    expect(api.headers['cache-status']).toBe('landing; hit; ttl=60');
    expect(api.headers['cache-control']).toBe(CACHE_CONTROL);
    expect((await request(app).get('/api/logo')).body).toEqual({ url: publicLogoUrl(fake) });
  });
});

describe('without a backend', () => {
  it('answers /api from the content file and never calls out', async () => {
    const { app } = await backendApp(fake, { env: { SUPABASE_URL: '', SUPABASE_ANON_KEY: '' } });
    const slides = await request(app).get('/api/hero-slides').expect(200);
    expect(slides.body.heroSlides[0]).toMatchObject({
      image: '/images/hero/munich-1600.jpg',
      studio: 'Studio München',
    });
    expect(slides.headers['cache-control']).toBe(CACHE_CONTROL);
    // The sample names no logo image: the page draws the mark with the event's name.
    expect((await request(app).get('/api/logo')).body).toEqual({ url: null });
    expect(fake.calls).toEqual({ heroImages: 0, logoList: 0, liveRows: 0 });
  });
});
