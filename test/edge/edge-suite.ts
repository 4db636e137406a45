import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { APP_ROOT, CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { answerNormally } from '../helpers/backend.ts';
import { failure, PREFERRED_LOGO, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { startCache, type CacheName, type EdgeCache } from '../../scripts/harness/edge-caches.ts';
import { contentFileWith, eventFieldsAt, moveEvent, wholeMinuteFromNow } from '../helpers/event-times.ts';
import { withFixtureLanguages } from '../helpers/fixture-languages.ts';
import { ACCEPT_ENCODINGS, decoded, get, many, wait, type Answer, type RequestHeaders } from './visitors.ts';
import { logSettled, requestsLogged } from './server-log.ts';
import { makePictures, smallLogo } from './made-pictures.ts';
import { smallPhoto } from '../helpers/photos.ts';
import { PHOTOS_PATH } from '../../server/photos/photo-route.ts';

/** The server's freshness for backend answers in these runs: short, so that windows pass within a test. */
const FRESH_SECONDS = 3;
/** How long the edge may keep a page (the server's default), bounded further by the event clock. */
const PAGE_SECONDS = 5;
const { script, stylesheet } = readClientManifest(CLIENT_BUILD_DIR);
const LANGUAGES = ['de', 'en', 'es'] as const;

/** What a page says about its visitor: its language, and whether the first-visit overlay shows. */
function variantOf(answer: Answer): string {
  const html = decoded(answer).toString();
  const lang = /<html lang="([^"]+)"/.exec(html)?.[1];
  const chosen = /"languageChosen":(true|false)/.exec(html)?.[1];
  return `${answer.status} ${lang} ${chosen === 'true' ? 'chosen' : 'first visit'}`;
}

/**
 * Page requests a crowd sends: each language, no cookie, ?lng= (also repeated, and LNG), other
 * cookies beside, campaign tags, and cookies the edge could read otherwise than the server does.
 */
const PAGE_REQUESTS: { query: string; cookie?: string | string[] }[] = [
  { query: '' },
  ...LANGUAGES.map((language) => ({ query: '', cookie: `selectedLanguage=${language}` })),
  ...LANGUAGES.map((language) => ({ query: `?lng=${language}` })),
  { query: '?lng=es', cookie: 'selectedLanguage=en' },
  { query: '?lng=en&lng=es', cookie: 'selectedLanguage=de' },
  { query: '?LNG=es', cookie: 'selectedLanguage=en' },
  { query: '?utm_source=mail&utm_campaign=day', cookie: 'selectedLanguage=es' },
  { query: '', cookie: 'theme=dark; selectedLanguage=en; consent=yes' },
  { query: '', cookie: 'SELECTEDLANGUAGE=en' },
  { query: '', cookie: 'selectedlanguage=es' },
  { query: '', cookie: 'a=1, selectedLanguage=en' },
  { query: '', cookie: 'selectedLanguage=en, a=1' },
  { query: '', cookie: 'selectedLanguage=es; selectedLanguage=en' },
  { query: '', cookie: 'selectedLanguage=xx; selectedLanguage=en' },
  { query: '', cookie: ['selectedLanguage=es', 'selectedLanguage=en'] },
  { query: '', cookie: 'selectedLanguage=fr' },
  { query: '', cookie: 'selectedLanguage=En' },
  { query: '', cookie: 'selectedLanguage=%65n' },
  { query: '', cookie: 'selectedLanguage="en"' },
  { query: '', cookie: 'selectedLanguage = en ;x=1' },
  { query: '', cookie: 'x=selectedLanguage=en' },
];

/**
 * The shipped edge configuration of one cache, run in front of the built server and the fake
 * Supabase, tried as visitors would. The last test stops the server.
 */
export function describeEdge(name: CacheName) {
  describe(`behind ${name} with deploy/'s configuration`, () => {
    let fake: FakeSupabase;
    let server: RunningServer;
    let cache: EdgeCache;
    let snapshotDir: string;
    /** The server's own /api answers, naming its pictures of the slides and the logo. */
    let made: { heroSlides: Buffer; logo: Buffer };
    const figures: Record<string, number> = {};

    const reachedServer = (url: string) => requestsLogged(server, url);
    const logsSettle = () => logSettled(server);
    /** Whether the server logged a request with this id: ids go through the cache both ways. */
    const loggedByServer = async (answer: Answer) => {
      await logsSettle();
      return server.logs.some((line) => line.requestId === answer.headers['x-request-id']);
    };
    const at = (url: string, headers: RequestHeaders = {}) => get(cache.url + url, headers);
    /** The event in these runs starts in an hour or so: a crowd across a start has files of its own. */
    const eventStart = wholeMinuteFromNow(60 * 60_000);
    let contentPath: string;
    const languages = withFixtureLanguages();

    beforeAll(async () => {
      // Five languages: the shipped three, and French and a right-to-left Arabic added by files alone.
      contentPath = contentFileWith((file) => {
        moveEvent(file, eventFieldsAt(eventStart, 90));
        file.languages = languages.languages;
      });
      fake = await startFakeSupabase();
      answerNormally(fake);
      // Photos the server can make pictures of: the fake's own stand-ins are 1 × 1 pixel.
      for (const [name, colour] of [
        ['munich.jpg', '#223344'],
        ['marbella.jpg', '#443322'],
        ['vienna.jpg', '#224433'],
      ] as const) {
        fake.objects.set(`hero/${name}`, { body: await smallPhoto(colour), contentType: 'image/jpeg' });
      }
      fake.objects.set(`logo/${PREFERRED_LOGO}`, { body: await smallLogo(), contentType: 'image/png' });
      snapshotDir = mkdtempSync(path.join(os.tmpdir(), 'edge-snapshot-'));
      const env = {
        SUPABASE_URL: fake.url,
        SUPABASE_ANON_KEY: fake.key,
        CACHE_FRESH_SECONDS: String(FRESH_SECONDS),
        CACHE_STALE_SECONDS: '600',
        PAGE_EDGE_SECONDS: String(PAGE_SECONDS),
        CONTENT_PATH: contentPath,
        LOCALES_PATH: languages.localesDir,
        PHOTOS_PATH: path.join(snapshotDir, 'photos'),
      };
      // Made beforehand, so that the server's backend answers start as cold as a new server's.
      made = await makePictures({ ...env, CACHE_SNAPSHOT_PATH: path.join(snapshotDir, 'maker-snapshot.json') });
      server = await startServer({ ...env, CACHE_SNAPSHOT_PATH: path.join(snapshotDir, 'snapshot.json') });
      cache = await startCache(name, { host: '127.0.0.1', port: Number(new URL(server.url).port) });
    });

    afterAll(async () => {
      const results = path.join(APP_ROOT, 'test-results/edge');
      mkdirSync(results, { recursive: true });
      writeFileSync(path.join(results, `${name}.json`), `${JSON.stringify(figures, null, 2)}\n`);
      await cache?.stop();
      await server?.stop();
      await fake?.close();
      rmSync(snapshotDir, { recursive: true, force: true });
      rmSync(path.dirname(contentPath), { recursive: true, force: true });
    });

    // Each run starts with nothing kept: the cookie run and the other one ask for different keys.
    it.each([
      ['/api/hero-slides', 'the cookie'],
      ['/api/logo', 'no cookie'],
      ['the hashed script', 'the cookie'],
      ['the hashed stylesheet', 'no cookie'],
    ] as const)(
      'keeps %s for every visitor (sent with %s): at most one request per freshness window per coding reaches the server',
      async (what, sent) => {
        const withCookie = sent === 'the cookie';
        const url = what === 'the hashed script' ? script : what === 'the hashed stylesheet' ? stylesheet : what;
        const isAsset = url === script || url === stylesheet;
        const expected = isAsset
          ? readFileSync(path.join(CLIENT_BUILD_DIR, url))
          : url === '/api/logo'
            ? made.logo
            : made.heroSlides;
        const before = reachedServer(url);
        const started = performance.now();
        const answers = await many(200, 10, (index) => {
          const accept = ACCEPT_ENCODINGS[index % ACCEPT_ENCODINGS.length]!;
          const cookie: Record<string, string> = withCookie
            ? { Cookie: `selectedLanguage=${LANGUAGES[index % 3]}; other=1` }
            : {};
          return at(url, { 'Accept-Encoding': accept.header, ...cookie }).then((answer) => ({ answer, accept }));
        });
        const seconds = (performance.now() - started) / 1000;
        await logsSettle();
        for (const { answer, accept } of answers) {
          expect(answer.status).toBe(200);
          expect(accept.codings as readonly (string | undefined)[]).toContain(answer.headers['content-encoding']);
          expect(decoded(answer).equals(expected)).toBe(true);
          expect(answer.headers['set-cookie']).toBeUndefined();
        }
        const reached = reachedServer(url) - before;
        figures[`${what}, ${sent}: server requests per 200`] = reached;
        // The asset is immutable: one window. /api: every window the run touched, each coding once
        // (Varnish keeps gzip and unzips for the others; nginx keeps br, gzip and identity).
        const windows = isAsset ? 1 : Math.floor(seconds / FRESH_SECONDS) + 2;
        const codings = name === 'varnish' ? 2 : 3;
        expect(reached).toBeLessThanOrEqual(windows * codings);
      },
    );

    it('keeps one copy whatever the query string: a cache-busting query reaches the server no more', async () => {
      await at(stylesheet, { 'Accept-Encoding': 'gzip' });
      await logsSettle();
      const before = reachedServer(stylesheet);
      for (let i = 0; i < 20; i++) {
        expect((await at(`${stylesheet}?v=${i}`, { 'Accept-Encoding': 'gzip' })).status).toBe(200);
      }
      await logsSettle();
      expect(reachedServer(stylesheet) - before).toBe(0);
    });

    it('serves every visitor the page the server renders for their request: none wrong among 480 mixed requests', async () => {
      const pages = ['/', '/impressum'];
      const headersOf = (index: number): RequestHeaders => {
        const { cookie } = PAGE_REQUESTS[index % PAGE_REQUESTS.length]!;
        return {
          'Accept-Encoding': ACCEPT_ENCODINGS[index % ACCEPT_ENCODINGS.length]!.header,
          ...(cookie ? { Cookie: cookie } : {}),
        };
      };
      const urlOf = (index: number) =>
        pages[Math.floor(index / PAGE_REQUESTS.length) % 2]! + PAGE_REQUESTS[index % PAGE_REQUESTS.length]!.query;
      // What the server itself renders for each request, asked directly.
      const direct = new Map<string, string>();
      for (let index = 0; index < 2 * PAGE_REQUESTS.length; index++) {
        direct.set(
          urlOf(index) + JSON.stringify(headersOf(index).Cookie),
          variantOf(await get(server.url + urlOf(index), headersOf(index))),
        );
      }
      const answers = await many(480, 12, async (index) => ({
        index,
        answer: await at(urlOf(index), headersOf(index)),
      }));
      const wrong = answers.filter(
        ({ index, answer }) => variantOf(answer) !== direct.get(urlOf(index) + JSON.stringify(headersOf(index).Cookie)),
      );
      figures['pages unlike the server own per 480'] = wrong.length;
      expect(
        wrong.map(
          ({ index, answer }) => `${urlOf(index)} ${JSON.stringify(headersOf(index).Cookie)}: ${variantOf(answer)}`,
        ),
      ).toEqual([]);
      // The variants themselves: a hostile spelling is a first visit, as the server reads it.
      expect(direct.get('/' + JSON.stringify('SELECTEDLANGUAGE=en'))).toBe('200 de first visit');
      expect(direct.get('/' + JSON.stringify(['selectedLanguage=es', 'selectedLanguage=en']))).toBe('200 es chosen');
      for (const { index, answer } of answers) {
        expect(answer.headers['cdn-cache-control']).toBeUndefined();
        expect(answer.headers['x-accel-expires']).toBeUndefined();
        expect(answer.headers['cache-control']).toBe('private, no-cache');
        const chosenBy = /^\?lng=(de|en|es)$/.exec(PAGE_REQUESTS[index % PAGE_REQUESTS.length]!.query)?.[1];
        if (chosenBy) expect(answer.headers['set-cookie']?.[0]).toMatch(new RegExp(`^selectedLanguage=${chosenBy};`));
        else expect(answer.headers['set-cookie']).toBeUndefined();
      }
    });

    it('lets at most one request per page variant and lifetime reach the server in a burst of 100', async () => {
      const variants: [string, string[]][] = [
        ['de', ['selectedLanguage=de', 'a=1; selectedLanguage=de']],
        ['en', ['selectedLanguage=en', 'selectedLanguage= en; utm=1']],
        ['es', ['selectedLanguage=es', 'selectedLanguage=es; selectedLanguage=en']],
        ['first visit', ['', 'SelectedLanguage=en', 'selectedLanguage="en"']],
      ];
      let sent = 0;
      let reachedAll = 0;
      // Every copy the runs before kept has expired, so each burst starts with a miss.
      await wait(PAGE_SECONDS * 1000 + 500);
      for (const page of ['/', '/impressum']) {
        for (const [variant, cookies] of variants) {
          await logsSettle();
          const before = reachedServer(page);
          const started = performance.now();
          const answers = await many(100, 25, (index) => {
            const cookie = cookies[index % cookies.length]!;
            return at(`${page}${index % 4 === 0 ? `?utm_source=${index}` : ''}`, {
              'Accept-Encoding': 'gzip, deflate, br',
              ...(cookie ? { Cookie: cookie } : {}),
            });
          });
          const seconds = (performance.now() - started) / 1000;
          await logsSettle();
          const reached = reachedServer(page) - before;
          sent += 100;
          reachedAll += reached;
          for (const answer of answers)
            expect(variantOf(answer)).toBe(
              `200 ${variant === 'first visit' ? 'de' : variant} ${variant === 'first visit' ? 'first visit' : 'chosen'}`,
            );
          // A lifetime is a whole second at least: a burst can touch at most one more than it lasted.
          const counted = `${page} ${variant}: ${reached} in ${seconds.toFixed(2)} s`;
          expect(reached, counted).toBeGreaterThanOrEqual(1);
          expect(reached, counted).toBeLessThanOrEqual(1 + Math.ceil(seconds));
        }
      }
      figures['page requests reaching the server per 1000, bursts'] = Math.round((reachedAll / sent) * 1000);
    });

    it('keeps a language added by files like the shipped ones, and no copy for a code the server does not offer', async () => {
      // The edge takes any well-formed code as a variant, so a language added by files needs no
      // edit here; the server's answer for one it does not offer carries no edge lifetime.
      await logsSettle();
      const impressum = reachedServer('/impressum');
      for (const code of ['fr', 'ar']) {
        for (let i = 0; i < 5; i++) {
          const answer = await at('/impressum', { 'Accept-Encoding': 'gzip', Cookie: `selectedLanguage=${code}` });
          expect(variantOf(answer), code).toBe(`200 ${code} chosen`);
        }
      }
      await logsSettle();
      // Five requests a language within a second or two: one of them, or two across a lifetime's end.
      expect(reachedServer('/impressum') - impressum).toBeGreaterThanOrEqual(2);
      expect(reachedServer('/impressum') - impressum).toBeLessThanOrEqual(4);

      const madeUp = ['it', 'pt-BR', 'zh-Hant-TW', 'xx', 'it', 'it'];
      const before = reachedServer('/');
      for (const code of madeUp) {
        const answer = await at('/', { 'Accept-Encoding': 'gzip', Cookie: `selectedLanguage=${code}` });
        expect(variantOf(answer), code).toBe('200 de first visit');
      }
      await logsSettle();
      expect(reachedServer('/') - before).toBe(madeUp.length);
    });

    it.each([
      ['/', 'en'],
      ['/impressum', 'es'],
      ['/', undefined],
      ['/event.ics', 'de'],
    ])('answers %s (language cookie %s) with 304 to a conditional request', async (page, language) => {
      const headers: Record<string, string> = { 'Accept-Encoding': 'gzip, deflate, br' };
      if (language) headers.Cookie = `selectedLanguage=${language}`;
      const first = await at(page, headers);
      expect(first.status).toBe(200);
      const etag = first.headers.etag!;
      expect(etag).toBeDefined();
      const again = await at(page, { ...headers, 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.body).toHaveLength(0);
      // /event.ics is passed to the server; a page may be answered from its kept copy.
      if (page === '/event.ics') {
        expect(await loggedByServer(first)).toBe(true);
        expect(await loggedByServer(again)).toBe(true);
      }
    });

    it('stores no answer with Set-Cookie and replays none', async () => {
      const chosen = await at('/?lng=en');
      expect(chosen.headers['set-cookie']?.[0]).toMatch(/^selectedLanguage=en;/);
      const chosenAgain = await at('/?lng=en');
      expect(chosenAgain.headers['set-cookie']?.[0]).toMatch(/^selectedLanguage=en;/);
      const plain = await at('/');
      expect(plain.headers['set-cookie']).toBeUndefined();
      // A page chosen by ?lng= reaches the server each time; the plain one may be a kept copy.
      for (const answer of [chosen, chosenAgain]) expect(await loggedByServer(answer)).toBe(true);
      for (const url of [
        '/api/hero-slides',
        '/api/logo',
        script,
        '/locales/en/translation.json',
        '/images/studios/munich-480.jpg',
      ]) {
        expect((await at(url, { Cookie: 'selectedLanguage=en' })).headers['set-cookie']).toBeUndefined();
      }
    });

    it('gives every visitor the id of their own request, never the one that filled the cache', async () => {
      const answers = await many(60, 6, (index) => at(index % 2 ? '/api/hero-slides' : script));
      const ids = answers.map((answer) => answer.headers['x-request-id']);
      expect(ids.every((id) => typeof id === 'string' && /^[\w-]{1,128}$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      // A valid id from the proxy in front is kept; anything else is replaced.
      expect((await at('/api/hero-slides', { 'X-Request-Id': 'lb-0123' })).headers['x-request-id']).toBe('lb-0123');
      expect((await at('/api/hero-slides', { 'X-Request-Id': 'a b' })).headers['x-request-id']).not.toBe('a b');
    });

    it("adds its own Cache-Status entry after the server's", async () => {
      const own = new RegExp(name === 'varnish' ? ', varnish; hit; ttl=-?\\d+$' : ', nginx; hit$');
      // A copy kept here, fresh or (at the turn of a freshness window) stale.
      let kept = await at('/api/logo');
      for (let tries = 0; tries < 10 && !own.test(String(kept.headers['cache-status'])); tries++) {
        await wait(200);
        kept = await at('/api/logo');
      }
      expect(kept.headers['cache-status']).toMatch(/^landing; (hit; ttl=-?\d+|fwd=miss; stored), /);
      expect(kept.headers['cache-status']).toMatch(own);
      expect(kept.headers['x-cache']).toBeUndefined();
      expect(kept.headers.age ?? '0').toMatch(/^\d+$/);
      const asset = await at(script);
      expect(asset.headers['cache-status']).toMatch(new RegExp(`^${name}; hit`));
      const chosen = await at('/?lng=es', { Cookie: 'selectedLanguage=es' });
      expect(chosen.headers['cache-status']).toBe(`${name}; fwd=bypass`);
      await at('/impressum', { Cookie: 'selectedLanguage=es' });
      const page = await at('/impressum', { Cookie: 'selectedLanguage=es' });
      expect(page.headers['cache-status']).toMatch(new RegExp(`^${name}; (hit|fwd=miss)`));
      expect(page.headers['cdn-cache-control']).toBeUndefined();
    });

    it("keeps the server's Referrer-Policy on every page, kept or passed: the video provider refuses a frame without a Referer", async () => {
      const answers = [
        await at('/'),
        await at('/'), // kept by now
        await at('/?lng=en'),
        await at('/impressum', { Cookie: 'selectedLanguage=es' }),
        await at('/impressum', { Cookie: 'selectedLanguage=es' }),
        await at('/no/such/page'),
      ];
      for (const answer of answers) expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    });

    it('passes /healthz and /readyz uncached and keeps /metrics from the public', async () => {
      for (const probe of ['/healthz', '/readyz']) {
        const answer = await at(probe);
        expect(answer.status).toBe(200);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.headers['cache-status']).toBe(`${name}; fwd=bypass`);
      }
      for (const hidden of ['/metrics', '/METRICS', '/metrics/', '/metrics?x=1']) {
        const answer = await at(hidden);
        expect(answer.status).toBe(404);
        expect(answer.body.toString()).not.toContain('http_requests_total');
      }
    });

    it('logs each request with how it was served', async () => {
      // Varnish's log is a ring the crowd runs above have filled: ask again for what is checked.
      for (let tries = 0; tries < 10; tries++) {
        const kept = await at('/api/hero-slides');
        if (/, (varnish|nginx); hit(; ttl=\d+)?$/.test(String(kept.headers['cache-status']))) break;
        await wait(200);
      }
      await at('/impressum');
      await at('/?lng=es');
      await at(script);
      const log = cache.output();
      if (name === 'varnish') {
        expect(log).toMatch(
          /"GET http:\/\/127\.0\.0\.1:\d+\/api\/hero-slides HTTP\/1\.1" 200 \d+ handling=hit cache-status="landing; [^"]+, varnish; hit; ttl=\d+"/,
        );
        expect(log).toMatch(
          /"GET http:\/\/127\.0\.0\.1:\d+\/impressum HTTP\/1\.1" 200 \d+ handling=(hit|miss) cache-status="varnish; (hit|fwd=miss)[^"]*"/,
        );
        expect(log).toMatch(
          /"GET http:\/\/127\.0\.0\.1:\d+\/\?lng=es HTTP\/1\.1" 200 \d+ handling=pass cache-status="varnish; fwd=bypass"/,
        );
      } else {
        expect(log).toMatch(/"GET \/api\/hero-slides HTTP\/1\.1" 200 \d+ cache=HIT coding=(br|gzip)? id=[\w-]+/);
        expect(log).toMatch(/"GET \/impressum HTTP\/1\.1" 200 \d+ cache=(HIT|MISS) coding=\S* id=[\w-]+/);
        expect(log).toMatch(/"GET \/\?lng=es HTTP\/1\.1" 200 \d+ cache=- coding=\S* id=[\w-]+/);
      }
    });

    /** Asks for /api/hero-slides every `everyMs` for `forMs`; every answer must be the kept one. */
    async function expectKeptAnswers(forMs: number, everyMs: number): Promise<Answer[]> {
      const expected = made.heroSlides.toString();
      const answers: Answer[] = [];
      const until = performance.now() + forMs;
      while (performance.now() < until) {
        const answer = await at('/api/hero-slides', { 'Accept-Encoding': 'gzip, deflate, br' });
        expect(answer.status, answer.body.toString()).toBe(200);
        expect(decoded(answer).toString()).toBe(expected);
        answers.push(answer);
        await wait(everyMs);
      }
      return answers;
    }

    it('serves a kept /api answer stale, at once, while one request revalidates it', async () => {
      const staleHit = name === 'varnish' ? /, varnish; hit; ttl=-\d+$/ : /, nginx; hit; detail=(stale|updating)$/;
      const statuses: string[] = [];
      const until = performance.now() + (2 * FRESH_SECONDS + 1) * 1000;
      while (performance.now() < until) {
        const started = performance.now();
        const answer = await at('/api/logo', { 'Accept-Encoding': 'gzip' });
        expect(answer.status).toBe(200);
        expect(performance.now() - started).toBeLessThan(1000);
        statuses.push(String(answer.headers['cache-status']));
        await wait(100);
      }
      // Each time its copy turned stale, the cache answered from it and refreshed it behind.
      expect(statuses.filter((status) => staleHit.test(status)).length, statuses.join('\n')).toBeGreaterThan(0);
    });

    it('serves the kept /api answer while the backend fails', async () => {
      await at('/api/hero-slides');
      fake.reply.heroImages = failure(500);
      try {
        // Past the server's own freshness, through the server's stale answers.
        const answers = await expectKeptAnswers((2 * FRESH_SECONDS + 1) * 1000, 250);
        expect(answers.length).toBeGreaterThan(10);
      } finally {
        answerNormally(fake);
      }
    });

    it('serves the kept /api answer while the server is stopped', async () => {
      await expectKeptAnswers(100, 0);
      await server.stop();
      // Past the answer's max-age and its stale-while-revalidate window.
      const answers = await expectKeptAnswers((2 * FRESH_SECONDS + 3) * 1000, 250);
      expect(answers.length).toBeGreaterThan(10);
    });
  });

  describe(`${name} in front of a stand-in origin that records what reaches it`, () => {
    let origin: Server;
    let cache: EdgeCache;
    const received: { url: string; cookie?: string; acceptEncoding?: string }[] = [];
    /** Paths on which the stand-in sets a cookie, publicly cacheable: this site's kept paths never do. */
    const settingCookie = new Set<string>();

    /** Pages answered as the server answers them, with a Date this far off the clock, by the variant cookie sent. */
    const pageDateSkew = new Map<string, number>();

    beforeAll(async () => {
      origin = createServer((req, res) => {
        received.push({ url: req.url!, cookie: req.headers.cookie, acceptEncoding: req.headers['accept-encoding'] });
        const skew = pageDateSkew.get(req.headers.cookie ?? '');
        if (req.url === '/' && skew !== undefined) {
          res.setHeader('X-Accel-Expires', '5');
          res.setHeader('CDN-Cache-Control', 'max-age=5');
          res.setHeader('Cache-Control', 'private, no-cache');
          res.setHeader('Date', new Date(Date.now() + skew).toUTCString());
          res.end('a page');
          return;
        }
        res.setHeader('Cache-Control', 'public, max-age=60');
        res.setHeader('Vary', 'Accept-Encoding');
        if (settingCookie.has(req.url!)) res.setHeader('Set-Cookie', `session=${received.length}`);
        res.end('kept?');
      });
      await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
      cache = await startCache(name, { host: '127.0.0.1', port: (origin.address() as AddressInfo).port });
    });

    afterAll(async () => {
      await cache?.stop();
      await new Promise((resolve) => origin?.close(resolve));
    });

    const at = (url: string, headers: Record<string, string> = {}) => get(cache.url + url, headers);
    const arrived = (url: string) => received.filter((request) => request.url === url);

    it("never stores an answer with Set-Cookie: every request reaches the origin, no visitor gets another's cookie", async () => {
      for (const url of ['/api/hero-slides', script, '/locales/de/translation.json']) {
        settingCookie.add(url);
        const cookies = [];
        for (let i = 0; i < 3; i++) cookies.push((await at(url)).headers['set-cookie']?.[0]);
        expect(arrived(url)).toHaveLength(3);
        expect(new Set(cookies).size).toBe(3);
      }
    });

    it('drops cookies and normalises Accept-Encoding for kept paths; sends a page the variant cookie alone', async () => {
      const visitor = { Cookie: 'theme=dark; selectedLanguage=en', 'Accept-Encoding': 'gzip, deflate, br, zstd' };
      await at('/api/logo', visitor);
      await at('/images/studios/munich-480.jpg', visitor);
      await at(`${PHOTOS_PATH}/AAAAAAAAAAAAAAAAAAAAAA-l480.webp`, visitor);
      await at('/impressum?utm_source=mail', visitor);
      await at('/', { ...visitor, Cookie: 'SelectedLanguage=en, selectedLanguage=es' });
      await at('/event.ics', visitor);
      const coding = name === 'varnish' ? 'gzip' : 'br';
      for (const kept of ['/api/logo', '/images/studios/munich-480.jpg']) {
        expect(arrived(kept)).toEqual([{ url: kept, cookie: undefined, acceptEncoding: coding }]);
      }
      // The pictures the server makes are the same bytes in every coding: nginx keeps one copy and asks for none.
      const photo = `${PHOTOS_PATH}/AAAAAAAAAAAAAAAAAAAAAA-l480.webp`;
      expect(arrived(photo)).toEqual([
        { url: photo, cookie: undefined, acceptEncoding: name === 'varnish' ? 'gzip' : undefined },
      ]);
      expect(arrived('/impressum')).toEqual([
        { url: '/impressum', cookie: 'selectedLanguage=en', acceptEncoding: coding },
      ]);
      expect(arrived('/')).toEqual([{ url: '/', cookie: undefined, acceptEncoding: coding }]);
      for (const passed of ['/event.ics']) {
        expect(arrived(passed)).toEqual([
          { url: passed, ...{ cookie: visitor.Cookie, acceptEncoding: visitor['Accept-Encoding'] } },
        ]);
      }
    });

    it("keeps a page for no longer than its lifetime, and for that long, when the server's clock is off", async () => {
      // [language, how far the Date is off the clock, the longest lifetime left at the edge]
      for (const [language, skew, longest] of [
        ['fr', -30_000, 5],
        ['it', 30_000, 5],
        // A slow answer, not a clock that is off: its lifetime counts from its Date.
        ['nl', -3_000, 2],
      ] as const) {
        const cookie = `selectedLanguage=${language}`;
        pageDateSkew.set(cookie, skew);
        const answers = [];
        for (let i = 0; i < 4; i++) answers.push(await at('/', { Cookie: cookie }));
        // nginx keys a page by the second too: a second may begin among the four requests.
        const reached = arrived('/').filter((request) => request.cookie === cookie).length;
        expect({ language, reached }).toEqual({ language, reached: name === 'varnish' ? 1 : expect.any(Number) });
        expect(reached).toBeLessThanOrEqual(2);
        if (name === 'varnish') {
          const ttl = Number(/varnish; hit; ttl=(-?\d+)/.exec(String(answers.at(-1)!.headers['cache-status']))?.[1]);
          expect({ language, ttl }).toEqual({ language, ttl: expect.any(Number) });
          expect(ttl).toBeGreaterThan(0);
          expect({ language, ttl }).toEqual({ language, ttl: Math.min(ttl, longest) });
        }
      }
    });
  });
}
