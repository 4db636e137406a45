import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bootstrapOf } from '../helpers/app.ts';
import { answerNormally, backendApp, publicLogoUrl, sampleSlides, warnings } from '../helpers/backend.ts';
import {
  failure,
  fileEntry,
  HANG,
  json,
  raw,
  STALL,
  startFakeSupabase,
  type FakeSupabase,
  type Reply,
} from '../../scripts/harness/fake-supabase.ts';
import { TEXT_LIMITS } from '../../server/content/text-limits.ts';

let fake: FakeSupabase;
beforeEach(async () => {
  fake = await startFakeSupabase();
  answerNormally(fake);
});
afterEach(() => fake.close());

const FALLBACK_SLIDES = { heroSlides: [] };
const TIMEOUT_MS = 300;
/** How much later than the timeout an answer may come on a busy test machine. */
const SLACK_MS = 1200;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** With nothing cached: both endpoints and the page still answer 200, with the fallback and the backend's status. */
async function expectFallback(app: Parameters<typeof request>[0], backendStatus: number) {
  const slides = await request(app).get('/api/hero-slides').expect(200);
  expect(slides.body).toEqual(FALLBACK_SLIDES);
  expect(slides.headers['cache-control']).toBe('no-store');
  expect(slides.headers['cache-status']).toBe(`landing; fwd=miss; fwd-status=${backendStatus}; detail=fallback`);
  expect(slides.headers.age).toBeUndefined();
  const logo = await request(app).get('/api/logo').expect(200);
  expect(logo.body).toEqual({ url: publicLogoUrl(fake) });
  expect(logo.headers['cache-control']).toBe('no-store');
  const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
  // Slides unknown: the browser asks /api/hero-slides once; the logo is the default file's address.
  expect(bootstrapOf(page.text).app).toMatchObject({ heroSlides: null, logoUrl: publicLogoUrl(fake) });
  expect(page.text).toContain('<p class="hero__studio">Loading studios...</p>');
  expect(page.text).toContain('hero__slides--empty');
  return page;
}

describe('a failing backend with nothing cached', () => {
  it('a 500: fallback with status 200, one warning per problem, and a new try on the next request', async () => {
    fake.reply.heroImages = failure(500);
    fake.reply.logoList = failure(500);
    const { app, logLines, record } = await backendApp(fake);
    await expectFallback(app, 500);
    await expectFallback(app, 500);
    const logged = warnings(logLines);
    expect(logged.map((line) => [line.endpoint, line.msg, line.reason])).toEqual([
      ['hero-slides', 'backend call failed', 'hero-images: answered HTTP 500'],
      ['logo', 'backend call failed', 'logo listing: answered HTTP 500 (boom)'],
    ]);
    expect(record.served.filter((s) => s.startsWith('hero-slides'))).toEqual([
      'hero-slides:fallback',
      'hero-slides:fallback',
    ]);
    expect(record.upstreamErrors.filter((e) => e === 'hero-slides').length).toBe(fake.calls.heroImages);

    answerNormally(fake);
    const recovered = await request(app).get('/api/hero-slides').expect(200);
    expect(recovered.body).toEqual({ heroSlides: sampleSlides(fake) });
    expect(recovered.headers['cache-status']).toBe('landing; fwd=miss; stored');
    expect(logLines.filter((line) => line.msg !== 'request completed').at(-1)).toMatchObject({
      msg: 'backend answer is good again',
      endpoint: 'hero-slides',
    });
  });

  it('a wrong key: the backend answers 401, the visitor gets the fallback, the log says why', async () => {
    const { app, logLines } = await backendApp(fake, { env: { SUPABASE_ANON_KEY: 'not-the-key' } });
    await expectFallback(app, 401);
    expect(warnings(logLines).map((line) => line.reason)).toEqual([
      'hero-images: answered HTTP 401',
      'logo listing: answered HTTP 401 (Invalid API key)',
      // The page's render asks for the live row too.
      'live_state: answered HTTP 401 (Invalid API key)',
    ]);
    expect(JSON.stringify(logLines)).not.toContain('not-the-key');
  });

  it.each<[string, Reply]>([
    ['hangs', HANG],
    ['sends headers and then stalls in the body', STALL],
  ])('a backend that %s: every answer within the timeout, the fallback', async (_, reply) => {
    fake.reply.heroImages = reply;
    fake.reply.logoList = reply;
    const { app, logLines } = await backendApp(fake, { env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS) } });
    const [slides, apiTime] = await timed(() => request(app).get('/api/hero-slides'));
    expect(slides.status).toBe(200);
    expect(slides.body).toEqual(FALLBACK_SLIDES);
    // No answer came: reported to the caches in front as a gateway timeout.
    expect(slides.headers['cache-status']).toBe('landing; fwd=miss; fwd-status=504; detail=fallback');
    expect(apiTime).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    const [page, pageTime] = await timed(() => request(app).get('/'));
    expect(page.status).toBe(200);
    expect(pageTime).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    expect(bootstrapOf(page.text).app).toMatchObject({ heroSlides: null, logoUrl: publicLogoUrl(fake) });
    expect(warnings(logLines).find((line) => line.endpoint === 'hero-slides')).toMatchObject({
      reason: `timed out after ${TIMEOUT_MS} ms`,
    });
  });

  it('a slow backend within the timeout is waited for', async () => {
    fake.reply.heroImages = json({ heroSlides: sampleSlides(fake) }, { delayMs: 150 });
    const { app } = await backendApp(fake, { env: { UPSTREAM_TIMEOUT_MS: '1500' } });
    expect((await request(app).get('/api/hero-slides')).body).toEqual({ heroSlides: sampleSlides(fake) });
  });
});

describe('what the backend answers is checked', () => {
  const slidesOf = async (reply: Reply, env: NodeJS.ProcessEnv = {}) => {
    fake.reply.heroImages = reply;
    const { app, logLines } = await backendApp(fake, { env });
    const res = await request(app).get('/api/hero-slides').expect(200);
    return { res, logLines, app };
  };

  it.each<[string, Reply]>([
    ['HTML instead of JSON', raw('<html><body>Bad gateway</body></html>', { contentType: 'text/html' })],
    ['broken JSON marked as JSON', raw('{"heroSlides": [', { contentType: 'application/json' })],
    ['an empty body', raw('', { contentType: 'application/json' })],
    ['binary data', raw(Buffer.from([0, 1, 2, 3]), { contentType: 'application/octet-stream' })],
    ['heroSlides that is a string', json({ heroSlides: 'three studios' })],
    ['heroSlides that is an object', json({ heroSlides: { 0: { image: 'x', studio: 'y' } } })],
    ['no heroSlides at all', json({ slides: [] })],
    ['a bare list', json([])],
    ['null', json(null)],
    ['entries that are not objects', json({ heroSlides: ['a.jpg', 42, null] })],
    ['entries without image', json({ heroSlides: [{ studio: 'Studio Wien' }] })],
    ['entries without studio', json({ heroSlides: [{ image: 'IMAGE' }] })],
    ['fields that are not strings', json({ heroSlides: [{ image: ['IMAGE'], studio: { de: 'Studio' } }] })],
  ])('rejects %s: the fallback, one warning, nothing passed on', async (_, reply) => {
    if (reply.kind === 'json')
      reply.body = JSON.parse(JSON.stringify(reply.body).replaceAll('IMAGE', fake.image('ok.jpg')));
    const { res, logLines } = await slidesOf(reply);
    expect(res.body).toEqual(FALLBACK_SLIDES);
    expect(res.headers['cache-control']).toBe('no-store');
    // An answer that cannot be used: a bad gateway.
    expect(res.headers['cache-status']).toBe('landing; fwd=miss; fwd-status=502; detail=fallback');
    const logged = warnings(logLines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ endpoint: 'hero-slides', msg: 'backend call failed' });
  });

  it('reads JSON sent without an application/json Content-Type (supabase-js hands it over as text)', async () => {
    const { res } = await slidesOf(
      raw(JSON.stringify({ heroSlides: sampleSlides(fake) }), { contentType: 'text/plain;charset=UTF-8' }),
    );
    expect(res.body).toEqual({ heroSlides: sampleSlides(fake) });
  });

  it('refuses an answer larger than 1 MB, announced or not', async () => {
    const huge = JSON.stringify({ heroSlides: [{ image: fake.image('a.jpg'), studio: 'x'.repeat(1024 * 1024) }] });
    for (const withoutLength of [false, true]) {
      const { res, logLines } = await slidesOf(raw(huge, { contentType: 'application/json', withoutLength }));
      expect(res.body).toEqual(FALLBACK_SLIDES);
      expect(res.headers['cache-status']).toBe('landing; fwd=miss; fwd-status=502; detail=fallback');
      expect(warnings(logLines)[0]!.reason).toBe('hero-images: the answer is larger than 1048576 bytes');
    }
  });

  it('drops image addresses that are not https on the backend or an IMAGE_HOSTS host, and over-long fields', async () => {
    const own = fake.image('good.jpg');
    const { studioName } = TEXT_LIMITS;
    const slides = [
      { image: own, studio: 'Own origin' },
      { image: 'https://images.example.com/listed.jpg', studio: 'Listed host' },
      // As long as a studio's name in the content file may be: kept.
      { image: own, studio: `Studio ${'L'.repeat(studioName - 7)}` },
      { image: 'javascript:alert(1)', studio: 'Script' },
      { image: 'JaVaScRiPt:alert(1)', studio: 'Script in capitals' },
      { image: 'data:image/svg+xml,<svg onload=alert(1)>', studio: 'Data' },
      { image: 'https://evil.example/x.jpg', studio: 'Other host' },
      { image: 'http://images.example.com/plain.jpg', studio: 'Plain http elsewhere' },
      { image: '//evil.example/x.jpg', studio: 'Protocol-relative' },
      { image: '/images/hero/munich-1600.jpg', studio: 'Relative' },
      { image: own.replace('http://', 'http://user:pw@'), studio: 'Credentials' },
      { image: `${own}?${'a'.repeat(2100)}`, studio: 'Over-long address' },
      // One character longer than a studio's name in the content file may be: left out, like an empty one.
      { image: own, studio: 'S'.repeat(studioName + 1) },
      { image: own, studio: '   ' },
    ];
    const { res, logLines, app } = await slidesOf(json({ heroSlides: slides }), { IMAGE_HOSTS: 'images.example.com' });
    expect(res.body).toEqual({ heroSlides: slides.slice(0, 3) });
    expect(res.headers['cache-status']).toBe('landing; fwd=miss; stored');
    const logged = warnings(logLines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      endpoint: 'hero-slides',
      msg: 'backend answer had unusable parts; they were left out',
    });
    expect(logged[0]!.dropped).toHaveLength(slides.length - 3);
    expect(logged[0]!.dropped).toContain(
      `heroSlides.${slides.length - 2}: studio has ${studioName + 1} characters, at most ${studioName}`,
    );
    const page = await request(app).get('/');
    for (const bad of ['javascript:', 'JaVaScRiPt', 'data:image', 'evil.example', 'user:pw@'])
      expect(page.text).not.toContain(bad);
  });

  it('drops image addresses on the listed hosts too unless they are https', async () => {
    const { res } = await slidesOf(
      json({
        heroSlides: [
          { image: 'http://127.0.0.2/x.jpg', studio: 'Other loopback' },
          { image: fake.image('a.jpg'), studio: 'Own' },
        ],
      }),
    );
    expect(res.body.heroSlides).toEqual([{ image: fake.image('a.jpg'), studio: 'Own' }]);
  });

  it('carries hostile studio names as text, escaped in the HTML, the hydration data and the JSON', async () => {
    const hostile = [
      '</script><script>alert(1)</script>',
      'Line\u2028separator\u2029end',
      '<img src=x onerror=alert(1)>',
      '"quoted" & \'single\'',
      '<!-- comment',
    ];
    fake.reply.heroImages = json({
      heroSlides: hostile.map((studio, i) => ({ image: fake.image(`${i}.jpg`), studio })),
    });
    const { app } = await backendApp(fake);

    const api = await request(app).get('/api/hero-slides').expect(200);
    expect(api.text).not.toMatch(/[<>\u2028\u2029]/);
    expect(JSON.parse(api.text).heroSlides.map((s: { studio: string }) => s.studio)).toEqual(hostile);

    const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    expect(page.text).toContain(
      '<p class="hero__studio" data-testid="studio-label">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).not.toMatch(/[\u2028\u2029]/);
    expect(bootstrapOf(page.text).app.heroSlides!.map((s) => 'studio' in s && s.studio)).toEqual(hostile);
    expect(page.text.match(/<script/g)).toHaveLength(3); // the module bundle, the hydration data, the JSON-LD: nothing the studio names added
  });

  it('keeps the logo listing within the bucket: names that would break the address are skipped, a wrong shape is refused', async () => {
    fake.reply.logoList = json([
      fileEntry('a?b.png'),
      fileEntry('x#y.png'),
      fileEntry('../../etc/passwd'),
      fileEntry('"><script>.png'),
      { id: 1 },
    ]);
    const first = await backendApp(fake, { env: { LOGO_FILE_NAME: 'missing.png' } });
    const logo = await request(first.app).get('/api/logo').expect(200);
    expect(logo.body).toEqual({ url: publicLogoUrl(fake, '%22%3E%3Cscript%3E.png') });
    expect(warnings(first.logLines)[0]).toMatchObject({
      endpoint: 'logo',
      dropped: expect.arrayContaining([expect.stringMatching(/unusable file name/)]),
    });

    fake.reply.logoList = json({ files: [] });
    const second = await backendApp(fake);
    const fallback = await request(second.app).get('/api/logo').expect(200);
    expect(fallback.body).toEqual({ url: publicLogoUrl(fake) });
    expect(fallback.headers['cache-control']).toBe('no-store');
    expect(warnings(second.logLines)[0]).toMatchObject({
      endpoint: 'logo',
      reason: 'the logo listing is an object, not a list',
    });
  });

  it('never follows a redirect, which would carry the key along', async () => {
    const { res, logLines } = await slidesOf(raw('', { status: 302, headers: { Location: `${fake.url}/elsewhere` } }));
    expect(res.body).toEqual(FALLBACK_SLIDES);
    expect(fake.requests.filter((r) => r.route === 'other')).toEqual([]);
    expect(warnings(logLines)[0]).toMatchObject({ endpoint: 'hero-slides', msg: 'backend call failed' });
  });
});
