import { createServer } from 'node:http';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootstrapOf } from '../helpers/app.ts';
import {
  answerNormally,
  backendApp,
  ManualClock,
  publicLogoUrl,
  sampleSlides,
  snapshotWith,
  tempSnapshotPath,
  warnings,
} from '../helpers/backend.ts';
import { failure, HANG, json, raw, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';

let fake: FakeSupabase;
beforeEach(async () => {
  fake = await startFakeSupabase();
  answerNormally(fake);
});
afterEach(() => fake.close());

const newSlides = () => [{ image: fake.image('zurich.jpg'), studio: 'Studio Zürich' }];
/** Lets a background refresh that has been answered finish its work. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('coalescing', () => {
  it('100 concurrent cold requests cause exactly one call to each backend endpoint', async () => {
    const { app } = await backendApp(fake);
    const server = createServer(app).listen(0, '127.0.0.1');
    const releaseSlides = fake.hold('heroImages');
    const releaseLogo = fake.hold('logoList');
    try {
      let arrived = 0;
      const allArrived = new Promise<void>((resolve) => server.on('request', () => ++arrived === 205 && resolve()));
      const answers = Promise.all([
        ...Array.from({ length: 100 }, () => request(server).get('/api/hero-slides')),
        ...Array.from({ length: 100 }, () => request(server).get('/api/logo')),
        ...Array.from({ length: 5 }, () => request(server).get('/').set('Cookie', 'selectedLanguage=en')),
      ]);
      await allArrived;
      await fake.received('heroImages', 1);
      await fake.received('logoList', 1);
      await settle();
      releaseSlides();
      releaseLogo();
      const responses = await answers;
      expect(fake.calls).toMatchObject({ heroImages: 1, logoList: 1 });
      expect(responses.every((res) => res.status === 200)).toBe(true);
      const slideBodies = new Set(responses.slice(0, 100).map((res) => res.text));
      expect([...slideBodies]).toEqual([JSON.stringify({ heroSlides: sampleSlides(fake) })]);
      expect(new Set(responses.slice(100, 200).map((res) => res.text)).size).toBe(1);
      for (const page of responses.slice(200))
        expect(page.text).toContain('data-testid="studio-label">Studio München</p>');
    } finally {
      server.close();
    }
  });

  it('a failed call is shared as well: one call, every waiter gets the fallback, no waiter left hanging', async () => {
    fake.reply.heroImages = HANG;
    const { app, record } = await backendApp(fake, { env: { UPSTREAM_TIMEOUT_MS: '1000' } });
    const server = createServer(app).listen(0, '127.0.0.1');
    try {
      const responses = await Promise.all(Array.from({ length: 30 }, () => request(server).get('/api/hero-slides')));
      expect(responses.every((res) => res.status === 200 && res.headers['cache-control'] === 'no-store')).toBe(true);
      expect(fake.calls.heroImages).toBe(1);
      expect(record.upstreamErrors).toEqual(['hero-slides']);
    } finally {
      server.close();
    }
  });
});

describe('stale-while-revalidate', () => {
  it('after CACHE_FRESH_SECONDS serves the old answer at once while one background refresh runs', async () => {
    const { app, clock } = await backendApp(fake);
    const first = await request(app).get('/api/hero-slides');
    clock.advance(61);
    fake.reply.heroImages = json({ heroSlides: newSlides() });
    const release = fake.hold('heroImages');

    const during = await Promise.all(Array.from({ length: 10 }, () => request(app).get('/api/hero-slides')));
    for (const res of during) {
      expect(res.status).toBe(200);
      expect(res.headers['cache-status']).toBe('landing; hit; ttl=-1');
      expect(res.headers.age).toBeUndefined();
      // Both windows end where the server's own end: 120 s and 60 + 86400 s after the backend's answer.
      expect(res.headers['cache-control']).toBe('public, max-age=0, stale-while-revalidate=59, stale-if-error=86399');
      expect(res.text).toBe(first.text);
      expect(res.headers.etag).toBe(first.headers.etag);
    }
    const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en');
    expect(page.text).toContain('data-testid="studio-label">Studio München</p>');
    await fake.received('heroImages', 2);
    expect(fake.calls.heroImages).toBe(2);

    release();
    await settle();
    const after = await request(app).get('/api/hero-slides');
    expect(after.headers['cache-status']).toBe('landing; hit; ttl=60');
    expect(after.headers.age).toBeUndefined();
    expect(after.body).toEqual({ heroSlides: newSlides() });
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(fake.calls.heroImages).toBe(2);
  });

  it('a kept page is sent at once with the answers at hand, stale ones too while one refresh runs, and waits past their window', async () => {
    const { app, clock } = await backendApp(fake);
    const english = () => request(app).get('/').set('Cookie', 'selectedLanguage=en');
    await english();
    const callsOnceKept = fake.calls.heroImages;
    expect((await english()).status).toBe(200);
    expect(fake.calls.heroImages).toBe(callsOnceKept);

    clock.advance(61);
    let release = fake.hold('heroImages');
    const stale = await english();
    expect(stale.text).toContain('data-testid="studio-label">Studio München</p>');
    await fake.received('heroImages', callsOnceKept + 1);
    release();
    await settle();

    clock.advance(121);
    release = fake.hold('heroImages');
    let answered = false;
    const waiting = english().then((res) => ((answered = true), res));
    await fake.received('heroImages', callsOnceKept + 2);
    await settle();
    expect(answered).toBe(false);
    release();
    expect((await waiting).status).toBe(200);
  });

  it('past the stale-while-revalidate window waits for the backend instead', async () => {
    const { app, clock } = await backendApp(fake);
    await request(app).get('/api/hero-slides');
    clock.advance(121);
    fake.reply.heroImages = json({ heroSlides: newSlides() });
    const res = await request(app).get('/api/hero-slides');
    expect(res.headers['cache-status']).toBe('landing; fwd=miss; stored');
    expect(res.body).toEqual({ heroSlides: newSlides() });
  });
});

describe('stale-if-error', () => {
  it('serves the last good answer while the backend fails, for up to CACHE_STALE_SECONDS, then the fallback', async () => {
    const { app, clock, logLines, record } = await backendApp(fake, { env: { CACHE_STALE_SECONDS: '3600' } });
    const good = await request(app).get('/api/hero-slides');
    await request(app).get('/api/logo');
    fake.reply.heroImages = failure(500);
    fake.reply.logoList = failure(502);
    clock.advance(600);

    const stale = await request(app).get('/api/hero-slides').expect(200);
    expect(stale.headers['cache-status']).toBe('landing; hit; ttl=-540');
    expect(stale.text).toBe(good.text);
    expect(stale.headers.etag).toBe(good.headers.etag);
    expect(stale.headers.age).toBeUndefined();
    // While the backend fails the server serves it at once until 60 + 3600 s: so may the caches in front.
    expect(stale.headers['cache-control']).toBe('public, max-age=0, stale-while-revalidate=3060, stale-if-error=3060');
    const logo = await request(app).get('/api/logo').expect(200);
    expect(logo.headers['cache-status']).toBe('landing; hit; ttl=-540');
    expect(logo.body).toEqual({ url: publicLogoUrl(fake) });
    const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en');
    expect(bootstrapOf(page.text).app).toMatchObject({ heroSlides: sampleSlides(fake) });
    expect(fake.calls).toMatchObject({ heroImages: 2, logoList: 2 });

    // While it keeps failing: the old answer at once, and the backend tried again only every few seconds.
    for (let i = 0; i < 5; i++)
      await request(app).get('/api/hero-slides').expect('Cache-Status', 'landing; hit; ttl=-540');
    expect(fake.calls.heroImages).toBe(2);
    clock.advance(6);
    await request(app).get('/api/hero-slides').expect('Cache-Status', 'landing; hit; ttl=-546');
    await fake.received('heroImages', 3);
    await settle();
    expect(warnings(logLines).filter((line) => line.endpoint === 'hero-slides')).toHaveLength(1);
    expect(record.upstreamErrors.filter((e) => e === 'hero-slides')).toHaveLength(2);

    // Still served just before freshness + CACHE_STALE_SECONDS, no longer after.
    clock.advance(3653 - 606);
    await request(app)
      .get('/api/hero-slides')
      .expect('Cache-Status', 'landing; hit; ttl=-3593')
      .expect('Cache-Control', 'public, max-age=0, stale-while-revalidate=7, stale-if-error=7');
    clock.advance(7);
    const expired = await request(app).get('/api/hero-slides').expect(200);
    expect(expired.body).toEqual({ heroSlides: [] });
    expect(expired.headers['cache-control']).toBe('no-store');
  });

  it('a hanging backend still gets the last good answer out within the timeout', async () => {
    const { app, clock } = await backendApp(fake, { env: { UPSTREAM_TIMEOUT_MS: '300' } });
    const good = await request(app).get('/api/hero-slides');
    fake.reply.heroImages = HANG;
    clock.advance(300);
    const started = performance.now();
    const stale = await request(app).get('/api/hero-slides').expect(200);
    expect(performance.now() - started).toBeLessThan(300 + 1200);
    expect(stale.headers['cache-status']).toBe('landing; hit; ttl=-240');
    expect(stale.text).toBe(good.text);
  });

  it('a refresh that returns garbage never replaces the last good answer', async () => {
    const { app, clock, logLines } = await backendApp(fake);
    const good = await request(app).get('/api/hero-slides');
    const garbage = [
      json({ heroSlides: 'nope' }),
      raw('<html>', { contentType: 'text/html' }),
      json({ heroSlides: [{ image: 'javascript:alert(1)', studio: 'x' }] }),
    ];
    for (const reply of garbage) {
      fake.reply.heroImages = reply;
      clock.advance(61);
      await request(app)
        .get('/api/hero-slides')
        .expect('Cache-Status', /^landing; hit; ttl=-\d+$/);
      await settle();
      const res = await request(app).get('/api/hero-slides').expect(200);
      expect(res.text).toBe(good.text);
      expect(res.headers.etag).toBe(good.headers.etag);
      clock.advance(6);
    }
    expect(warnings(logLines).map((line) => line.reason)).toEqual([
      'hero-images answered heroSlides as a string, not a list',
      'hero-images answered something that is not JSON',
      'hero-images answered no usable slide (heroSlides.0: image is not an https address on an allowed host)',
    ]);
  });
});

describe('the snapshot file', () => {
  it('keeps the last good answers across a restart during an outage', async () => {
    const snapshotPath = tempSnapshotPath();
    const clock = new ManualClock();
    const before = await backendApp(fake, { snapshotPath, clock });
    const good = await request(before.app).get('/api/hero-slides');
    await request(before.app).get('/api/logo');
    const saved = await snapshotWith(snapshotPath, ['hero-slides', 'logo']);
    expect(saved.backend).toBe(fake.url);
    expect(saved.entries['hero-slides']).toEqual({ value: sampleSlides(fake), fetchedAt: clock.ms });
    // Written through a temporary file and a rename: nothing else is left in the folder.
    expect(readdirSync(path.dirname(snapshotPath))).toEqual(['snapshot.json']);

    fake.reply.heroImages = failure(500);
    fake.reply.logoList = HANG;
    clock.advance(3600);
    const after = await backendApp(fake, { snapshotPath, clock, env: { UPSTREAM_TIMEOUT_MS: '300' } });
    const slides = await request(after.app).get('/api/hero-slides').expect(200);
    expect(slides.headers['cache-status']).toBe('landing; hit; ttl=-3540');
    expect(slides.text).toBe(good.text);
    expect(slides.headers['cache-control']).toBe(
      'public, max-age=0, stale-while-revalidate=82860, stale-if-error=82860',
    );
    const page = await request(after.app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    expect(page.text).toContain('data-testid="studio-label">Studio München</p>');
    expect(bootstrapOf(page.text).app).toMatchObject({ heroSlides: sampleSlides(fake), logoUrl: publicLogoUrl(fake) });
  });

  it('is ignored when it belongs to another backend, is unreadable, or holds what the checks refuse', async () => {
    // A file of its own for each app: an app's saves, made in the background, must not land on the next one's.
    let snapshotPath = tempSnapshotPath();
    fake.reply.heroImages = failure(500);
    const entries = (image: string) => ({
      'hero-slides': { value: [{ image, studio: 'Tampered' }], fetchedAt: Date.now() },
      logo: { value: 'javascript:alert(1)', fetchedAt: Date.now() },
    });

    writeFileSync(
      snapshotPath,
      JSON.stringify({ backend: 'https://other.supabase.co', entries: entries(fake.image('a.jpg')) }),
    );
    expect((await request((await backendApp(fake, { snapshotPath })).app).get('/api/hero-slides')).body).toEqual({
      heroSlides: [],
    });

    snapshotPath = tempSnapshotPath();
    writeFileSync(snapshotPath, JSON.stringify({ backend: fake.url, entries: entries('https://evil.example/a.jpg') }));
    const tampered = await backendApp(fake, { snapshotPath });
    expect((await request(tampered.app).get('/api/hero-slides')).body).toEqual({ heroSlides: [] });
    expect((await request(tampered.app).get('/api/logo')).body).toEqual({ url: publicLogoUrl(fake) });

    snapshotPath = tempSnapshotPath();
    writeFileSync(snapshotPath, '{"backend": ');
    const unreadable = await backendApp(fake, { snapshotPath });
    expect(
      unreadable.logLines.find((line) => line.msg === 'the backend cache snapshot is unreadable; ignored'),
    ).toBeDefined();
    expect((await request(unreadable.app).get('/api/hero-slides')).body).toEqual({ heroSlides: [] });
  });

  it('a snapshot that cannot be written is logged once and changes nothing else', async () => {
    const snapshotPath = path.join(tempSnapshotPath(), 'inside-a-file.json');
    writeFileSync(path.dirname(snapshotPath), 'a file where a folder should be');
    const { app, logLines, clock } = await backendApp(fake, { snapshotPath });
    await request(app).get('/api/hero-slides').expect(200).expect('Cache-Status', 'landing; fwd=miss; stored');
    await settle();
    clock.advance(121);
    await request(app).get('/api/hero-slides').expect(200).expect('Cache-Status', 'landing; fwd=miss; stored');
    await settle();
    expect(warnings(logLines).filter((line) => line.msg === 'cannot write the backend cache snapshot')).toHaveLength(1);
  });
});
