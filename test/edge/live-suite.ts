import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveAnswer } from '../../shared/api.ts';
import { liveEntityTag } from '../../server/live/live-version.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { startCache, type CacheName, type EdgeCache } from '../../scripts/harness/edge-caches.ts';
import { contentFileWith } from '../helpers/event-times.ts';
import { ACCEPT_ENCODINGS, decoded, get, many, wait, type Answer, type RequestHeaders } from './visitors.ts';
import { logSettled, requestsLogged } from './server-log.ts';

/** The server's defaults, set here so that the bounds below read them. */
const LIVE_SECONDS = 5;
const FILE_CHECK_SECONDS = 5;
const PAGE_SECONDS = 5;
/** A request's own time on a shared machine, on top of a bound. */
const SLACK_MS = 400;
const LIVE = '/api/live';

const noticeSaying = (text: string) => ({ notice: { level: 'info', text: { de: text, en: text, es: text } } });

/**
 * /api/live, which every open page polls, behind the shipped configuration of one cache: kept for
 * its lifetime and no longer, one request per lifetime however many polls, 304 for a browser's
 * conditional request, and a change of the live file at the edge within its lifetime.
 */
export function describeLiveAtEdge(name: CacheName) {
  describe(`/api/live behind ${name} with deploy/'s configuration`, () => {
    let server: RunningServer;
    let cache: EdgeCache;
    let contentPath: string;
    let livePath: string;

    const at = (url: string, headers: RequestHeaders = {}) => get(cache.url + url, headers);
    const reachedServer = () => requestsLogged(server, LIVE);
    const logsSettle = () => logSettled(server);
    const writeLive = (content: unknown) => {
      // Whole or not at all, as an editor's save or a ConfigMap's swap gives it.
      writeFileSync(`${livePath}.tmp`, JSON.stringify(content));
      renameSync(`${livePath}.tmp`, livePath);
    };
    const liveOf = (answer: Answer) => JSON.parse(decoded(answer).toString()) as LiveAnswer;
    /** Waits until the start of the next lifetime on the clock, so that a short run falls within one. */
    const nextLifetime = () => wait(LIVE_SECONDS * 1000 - (Date.now() % (LIVE_SECONDS * 1000)) + 100);

    beforeAll(async () => {
      contentPath = contentFileWith(() => {});
      livePath = path.join(path.dirname(contentPath), 'live.json');
      writeLive(noticeSaying('Before the change'));
      server = await startServer({
        CONTENT_PATH: contentPath,
        LIVE_EDGE_SECONDS: String(LIVE_SECONDS),
        LIVE_FILE_CHECK_SECONDS: String(FILE_CHECK_SECONDS),
        PAGE_EDGE_SECONDS: String(PAGE_SECONDS),
      });
      cache = await startCache(name, { host: '127.0.0.1', port: Number(new URL(server.url).port) });
    });

    afterAll(async () => {
      await cache?.stop();
      await server?.stop();
      if (contentPath) rmSync(path.dirname(contentPath), { recursive: true, force: true });
    });

    it('lets a crowd polling within one lifetime reach the server once, and once more after it', async () => {
      // Nothing is kept yet: the first burst asks for a new copy, the second, once a lifetime has
      // passed, for an expired one.
      await nextLifetime();
      let firstStarted = performance.now();
      for (const burst of ['new copy', 'expired copy']) {
        // Not at Varnish's idle timeout (5 s) of the kept connections either: they are closed by then.
        if (burst === 'expired copy') await wait(firstStarted + LIVE_SECONDS * 1000 + 1000 - performance.now());
        await logsSettle();
        const before = reachedServer();
        const started = performance.now();
        if (burst === 'new copy') firstStarted = started;
        const answers = await many(400, 50, () => at(LIVE, { 'Accept-Encoding': 'gzip, deflate, br' }));
        const seconds = (performance.now() - started) / 1000;
        await logsSettle();
        const reached = reachedServer() - before;
        for (const answer of answers) expect(answer.status).toBe(200);
        const counted = `${burst}: ${reached} of 400 in ${seconds.toFixed(2)} s`;
        expect(reached, counted).toBeGreaterThanOrEqual(1);
        // Within one lifetime once; a slow burst may run into the next one.
        expect(reached, counted).toBeLessThanOrEqual(seconds < LIVE_SECONDS - 0.5 ? 1 : 2);
      }
    });

    it('never serves a copy past its lifetime, nor stale while the server is up', async () => {
      await logsSettle();
      const before = reachedServer();
      const started = performance.now();
      const answers: Answer[] = [];
      while (performance.now() - started < 2.4 * LIVE_SECONDS * 1000) {
        answers.push(await at(LIVE, { 'Accept-Encoding': 'gzip' }));
        await wait(50);
      }
      const seconds = (performance.now() - started) / 1000;
      await logsSettle();
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        // Varnish says how long it has held the copy; a browser keeps it for max-age less that.
        expect(Number(answer.headers.age ?? 0)).toBeLessThan(LIVE_SECONDS);
        expect(answer.headers['cache-status']).not.toMatch(/ttl=-|detail=(stale|updating)/);
      }
      const reached = reachedServer() - before;
      expect(reached, `${reached} in ${seconds.toFixed(1)} s`).toBeGreaterThanOrEqual(
        Math.floor(seconds / LIVE_SECONDS),
      );
      expect(reached, `${reached} in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(
        Math.ceil(seconds / LIVE_SECONDS) + 1,
      );
    });

    it('gives gzip, brotli and identity clients the live document in a coding they accept, with its ETag', async () => {
      const direct = liveOf(await get(server.url + LIVE));
      for (const accept of ACCEPT_ENCODINGS) {
        const answer = await at(LIVE, { 'Accept-Encoding': accept.header });
        expect(answer.status).toBe(200);
        const coding = answer.headers['content-encoding'];
        expect(accept.codings as readonly (string | undefined)[]).toContain(coding);
        expect(liveOf(answer)).toEqual(direct);
        expect(answer.headers['cache-control']).toBe(`public, max-age=${LIVE_SECONDS}, stale-if-error=86400`);
        const tag = liveEntityTag(direct);
        if (coding) expect(answer.headers.etag).toBe(`"${tag}-${coding}"`);
        // Varnish keeps gzip alone and unzips it for an identity client: that ETag it weakens.
        else expect(answer.headers.etag).toMatch(new RegExp(`^("${tag}"|W/"${tag}-gzip")$`));
      }
    });

    it("answers a browser's If-None-Match with 304 at the edge, and a stale one with the document", async () => {
      for (const accept of ACCEPT_ENCODINGS) {
        const headers = { 'Accept-Encoding': accept.header };
        let first: Answer;
        let again: Answer;
        // A lifetime may end between the two: the pair is asked again within the next.
        for (let tries = 0; ; tries++) {
          first = await at(LIVE, headers);
          expect(first.headers.etag, accept.header).toMatch(/^(W\/)?"[\w.-]+"$/);
          again = await at(LIVE, { ...headers, 'If-None-Match': first.headers.etag! });
          if (/(varnish|nginx); hit/.test(String(again.headers['cache-status'])) || tries === 2) break;
        }
        expect(again.status, accept.header).toBe(304);
        expect(again.body).toHaveLength(0);
        expect(again.headers.etag).toBe(first.headers.etag);
        expect(again.headers['cache-status']).toMatch(new RegExp(`, ${name}; hit`));
        const other = await at(LIVE, { ...headers, 'If-None-Match': '"an-earlier-version-gzip"' });
        expect(other.status).toBe(200);
        expect(liveOf(other).version).toBe(liveOf(first).version);
      }
    });

    it('shows a change of the live file at the edge within its lifetime, and on pages within theirs', async () => {
      const oldVersion = liveOf(await at(LIVE, { 'Accept-Encoding': 'gzip' })).version;
      const lastOld = { live: 0, page: 0 };
      let newVersion: string | undefined;
      const polling = (async () => {
        const started = Date.now();
        for (let i = 0; Date.now() - started < (FILE_CHECK_SECONDS + LIVE_SECONDS + 4) * 1000; i++) {
          const accept = ACCEPT_ENCODINGS[i % ACCEPT_ENCODINGS.length]!.header;
          const live = liveOf(await at(LIVE, { 'Accept-Encoding': accept }));
          if (live.version === oldVersion) lastOld.live = Date.now();
          else newVersion = live.version;
          const page = decoded(await at('/', { 'Accept-Encoding': accept, Cookie: 'selectedLanguage=en' })).toString();
          if (page.includes('Before the change')) lastOld.page = Date.now();
          else expect(page).toContain('After the change');
          await wait(50);
        }
      })();
      await wait(1500);
      const changed = Date.now();
      writeLive(noticeSaying('After the change'));
      await polling;
      expect(newVersion).toBeDefined();
      expect(newVersion).not.toBe(oldVersion);
      const seenAt = Date.parse(String(server.logs.find((line) => line.msg === 'live state changed')?.time));
      expect(seenAt - changed).toBeLessThanOrEqual(FILE_CHECK_SECONDS * 1000 + SLACK_MS);
      // Once the server has the change, the edge keeps the old state for one lifetime at most.
      expect(lastOld.live - seenAt).toBeLessThanOrEqual(LIVE_SECONDS * 1000 + SLACK_MS);
      expect(lastOld.page - seenAt).toBeLessThanOrEqual(PAGE_SECONDS * 1000 + SLACK_MS);
      expect(lastOld.live - changed).toBeLessThanOrEqual((LIVE_SECONDS + FILE_CHECK_SECONDS) * 1000 + SLACK_MS);
    });
  });
}
