import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { startCache, type CacheName, type EdgeCache } from '../../scripts/harness/edge-caches.ts';
import { bootstrapOf } from '../helpers/app.ts';
import { contentFileForEvent, wholeMinuteFromNow } from '../helpers/event-times.ts';
import { decoded, get, wait } from './visitors.ts';
import { logSettled, requestsLogged } from './server-log.ts';

/** How long the edge may keep a page (the server's default), bounded further by the event clock. */
const PAGE_SECONDS = 5;
/**
 * How long after the server starts its rehearsal's clock reaches the event's start: time to start
 * the cache and send the crowd for the last 3 s before it.
 */
const LEAD_MS = 12_000;

/**
 * A crowd across the event's start behind the shipped configuration of one cache: the server
 * rehearses, its clock set seconds before the start, so that the crowd waits seconds for it, not
 * for the next whole minute (content gives times to the minute). The pages' lifetimes near a
 * change follow the event clock, which runs at the real clock's pace from its shifted reading.
 */
export function describeCrowdAtEdge(name: CacheName) {
  describe(`a crowd across the start behind ${name} with deploy/'s configuration`, () => {
    const eventStart = wholeMinuteFromNow(60 * 60_000);
    let contentPath: string;
    let server: RunningServer;
    let cache: EdgeCache;
    /** When the event clock reaches the start, on the real clock. */
    let moment: number;
    const figures: Record<string, number> = {};

    beforeAll(async () => {
      contentPath = contentFileForEvent(eventStart, 90);
      server = await startServer({
        CONTENT_PATH: contentPath,
        PAGE_EDGE_SECONDS: String(PAGE_SECONDS),
        REHEARSAL_CLOCK: new Date(eventStart - LEAD_MS).toISOString(),
        REHEARSAL_IN_PRODUCTION: 'yes',
      });
      cache = await startCache(name, { host: '127.0.0.1', port: Number(new URL(server.url).port) });
      // The server fixed its shift as it started; its page carries it.
      const { rehearsal } = bootstrapOf(await (await fetch(`${server.url}/`)).text()).app;
      moment = eventStart - rehearsal!.shiftMs;
    });

    afterAll(async () => {
      const results = path.join(APP_ROOT, 'test-results/edge');
      mkdirSync(results, { recursive: true });
      writeFileSync(path.join(results, `${name}-crowd.json`), `${JSON.stringify(figures, null, 2)}\n`);
      await cache?.stop();
      await server?.stop();
      if (contentPath) rmSync(path.dirname(contentPath), { recursive: true, force: true });
    });

    it('lets the crowd reach the server about once per page variant and lifetime, and shows the live page from the start', async () => {
      // The last second before a change counts too: with no copy kept for it, a crowd passed the
      // edge for that whole second, at every step of the countdown.
      const variants = ['', 'selectedLanguage=de', 'selectedLanguage=en', 'selectedLanguage=es'];
      const pages = ['/', '/impressum'];
      const from = moment - 3000;
      const until = moment + 3000;
      expect(Date.now(), 'the server and the cache took longer to start than the lead time').toBeLessThan(from - 500);
      await logSettled(server);
      await wait(from - Date.now());
      const before = pages.map((page) => requestsLogged(server, page));
      const started = performance.now();
      let sent = 0;
      const landing: { sentAt: number; answeredAt: number; phase: string | undefined }[] = [];
      await Promise.all(
        Array.from({ length: 16 }, async (_, worker) => {
          while (Date.now() < until) {
            const cookie = variants[(worker + sent) % variants.length]!;
            const page = pages[Math.floor(sent / variants.length) % pages.length]!;
            sent++;
            const sentAt = Date.now();
            const answer = await get(cache.url + page, {
              'Accept-Encoding': 'gzip, deflate, br',
              ...(cookie ? { Cookie: cookie } : {}),
            });
            expect(answer.status).toBe(200);
            if (page === '/') {
              const phase = /data-event-phase="(\w+)"/.exec(decoded(answer).toString())?.[1];
              landing.push({ sentAt, answeredAt: Date.now(), phase });
            }
            // Visitors, not a flood: a few thousand requests, and the caches' logs stay readable.
            await wait(20);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      await logSettled(server);
      const reached = pages.reduce((sum, page, i) => sum + requestsLogged(server, page) - before[i]!, 0);
      figures['crowd: visitor requests'] = sent;
      figures['crowd: page requests reaching the server'] = reached;
      figures['crowd: page requests reaching the server per 1000'] = Math.round((reached / sent) * 100_000) / 100;
      // Eight variants, each at most once per lifetime (a second at least, five at most).
      expect(reached, `${reached} of ${sent} in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(
        pages.length * variants.length * (Math.ceil(seconds) + 1),
      );
      // Never the live page before the start, never the countdown kept from before once it has
      // come (the caches' clocks are this machine's; a request may wait a moment to be read).
      const early = landing.filter(({ answeredAt, phase }) => answeredAt < moment && phase !== 'before');
      const late = landing.filter(({ sentAt, phase }) => sentAt >= moment + 250 && phase !== 'live');
      // Enough of the crowd on either side of the start to tell, even where a container build
      // beside the suite slows every answer (69 landed before the start in one such run).
      expect(landing.filter(({ answeredAt }) => answeredAt < moment).length).toBeGreaterThan(40);
      expect(landing.filter(({ sentAt }) => sentAt >= moment + 250).length).toBeGreaterThan(40);
      expect(early, 'live before the start').toEqual([]);
      expect(late, 'the countdown after the start').toEqual([]);
    });
  });
}
