import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import type { HeroSource } from '../../server/hero/hero-source.ts';
import { makeStartPictures } from '../../server/hero/start-pictures.ts';
import type { Photos } from '../../server/photos/photos.ts';
import type { PageAssets } from '../../shared/page-data.ts';
import { bootstrapOf } from '../helpers/app.ts';
import { answerNormally, backendApp } from '../helpers/backend.ts';
import { photosOnFake } from '../helpers/photos.ts';

/** A logger whose lines the test reads. */
function readLogger() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** A step of the start-up work that finishes when the test says. */
function step() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

const NO_ASSETS: PageAssets = { heroSlides: null, logoUrl: null };
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the hero pictures made at start (makeStartPictures)', () => {
  it('asks the source, waits until nothing is being made, lets the encoder go, then resolves', async () => {
    const order: string[] = [];
    const answered = step();
    const settled = step();
    const source = { get: () => answered.done.then(() => (order.push('source answered'), NO_ASSETS)) };
    const photos = { settled: () => settled.done.then(() => void order.push('photos made')) };
    const encoder = {
      encode: () => Promise.reject(new Error('unused')),
      close: async () => void order.push('encoder let go'),
    };
    const { logger, lines } = readLogger();
    let resolved = false;
    const start = makeStartPictures(
      source as unknown as HeroSource,
      { photos: photos as unknown as Photos, encoder },
      {
        timeoutMs: 5_000,
        logger,
      },
    ).then(() => (resolved = true));

    answered.finish();
    await settle();
    expect(resolved).toBe(false);
    settled.finish();
    await start;
    expect(order).toEqual(['source answered', 'photos made', 'encoder let go']);
    expect(lines.map((line) => line.msg)).toEqual(['hero pictures made: taking visitors']);
  });

  it('resolves at its deadline when the backend does not answer, the encoder left to the photos still coming', async () => {
    const source = { get: () => new Promise<PageAssets>(() => {}) };
    let closed = false;
    const encoder = { encode: () => Promise.reject(new Error('unused')), close: async () => void (closed = true) };
    const { logger, lines } = readLogger();
    const started = performance.now();
    await makeStartPictures(
      source as unknown as HeroSource,
      { photos: { settled: async () => {} } as unknown as Photos, encoder },
      { timeoutMs: 200, logger },
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(closed).toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'hero pictures not all made at the start: taking visitors, the rest are made meanwhile',
      }),
    ]);
  });

  it('resolves with a warning when the source fails', async () => {
    const source = { get: () => Promise.reject(new Error('no backend client')) };
    const encoder = { encode: () => Promise.reject(new Error('unused')), close: async () => {} };
    const { logger, lines } = readLogger();
    await makeStartPictures(
      source as unknown as HeroSource,
      { photos: { settled: async () => {} } as unknown as Photos, encoder },
      { timeoutMs: 5_000, logger },
    );
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'hero pictures of the start failed: taking visitors' }),
    ]);
  });
});

describe('a replica with a backend, at start', () => {
  let fake: FakeSupabase;
  beforeEach(async () => {
    fake = await startFakeSupabase();
    answerNormally(fake);
    await photosOnFake(fake);
  });
  afterEach(() => fake.close());

  it("reports ready once the hero's pictures are made, and its first page shows them", async () => {
    const answer = fake.hold('heroImages');
    const { app, logLines } = await backendApp(fake, { photos: true });
    // The slides have not come yet: the replica is not ready, and says why.
    await fake.received('heroImages', 1);
    expect((await request(app).get('/readyz').expect(503)).text).toBe('starting');

    answer();
    let ready = false;
    for (let tries = 0; tries < 200 && !ready; tries++) {
      ready = (await request(app).get('/readyz')).status === 200;
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(ready).toBe(true);
    const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    const slides = bootstrapOf(page.text).app.heroSlides!;
    expect(slides.filter((slide) => slide.image?.startsWith('/images/photos/')).length).toBe(2);
    expect(logLines.map((line) => line.msg)).toContain('hero pictures made: taking visitors');
  });
});
