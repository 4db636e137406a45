import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeroSlidesAnswer } from '../../shared/api.ts';
import type { HeroSlide } from '../../shared/page-data.ts';
import { DEFAULT_CONTENT_PATH, PUBLIC_DIR } from '../../server/config/paths.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { photoAddress } from '../../server/hero/with-photos.ts';
import { photoHash, renditionFile } from '../../server/photos/photo-store.ts';
import { PHOTOS_PATH } from '../../server/photos/photo-route.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { startCache, type CacheName, type EdgeCache } from '../../scripts/harness/edge-caches.ts';
import { ACCEPT_ENCODINGS, get, head, many, wait, type Answer, type RequestHeaders } from './visitors.ts';
import { logSettled, requestsLogged } from './server-log.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The address the first slide's 1280-wide JPEG gets on every replica, from its photo's bytes: what
 * a page from another replica names before this one has made it.
 */
function firstSlidePicture(): string {
  const photo = readFileSync(path.join(PUBLIC_DIR, photoAddress(loadContent(DEFAULT_CONTENT_PATH).heroSlides[0]!)));
  return `${PHOTOS_PATH}/${renditionFile(photoHash(photo), { crop: 'landscape', width: 1280, format: 'jpeg' })}`;
}

/**
 * The pictures the server makes of the hero's photos (/images/photos/), behind the shipped
 * configuration of one cache: kept like the hashed assets, one copy whatever the visitor sends,
 * and a name the server has not made yet never kept.
 */
export function describePhotosAtEdge(name: CacheName) {
  describe(`the pictures the server makes, behind ${name} with deploy/'s configuration`, () => {
    let server: RunningServer;
    let cache: EdgeCache;
    const picture = firstSlidePicture();

    const at = (url: string, headers: RequestHeaders = {}) => get(cache.url + url, headers);
    const reachedServer = (url: string) => requestsLogged(server, url);
    const logsSettle = () => logSettled(server);
    /** The first slide as the server itself names it, once its pictures are made. */
    const madeSlide = async (): Promise<HeroSlide> => {
      for (let tries = 0; tries < 300; tries++) {
        const { heroSlides } = JSON.parse(
          (await get(`${server.url}/api/hero-slides`)).body.toString(),
        ) as HeroSlidesAnswer;
        if (heroSlides[0]?.srcset?.includes(picture)) return heroSlides[0];
        await wait(100);
      }
      throw new Error(`the server did not make ${picture} within 30 s`);
    };
    const expectPicture = (answer: Answer, direct: Answer) => {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe(direct.headers['content-type']);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['cache-control']).toBe(IMMUTABLE);
      expect(answer.headers.etag).toBe(direct.headers.etag);
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(answer.body.equals(direct.body)).toBe(true);
    };

    beforeAll(async () => {
      // The content file's slides, made of public/images/hero/; nothing asks for them until the tests do.
      server = await startServer();
      cache = await startCache(name, { host: '127.0.0.1', port: Number(new URL(server.url).port) });
    });

    afterAll(async () => {
      await cache?.stop();
      await server?.stop();
    });

    it('answers a picture not made yet on this replica 404 and keeps no copy: once made, it is served', async () => {
      const early = await at(picture, { 'Accept-Encoding': 'gzip' });
      expect(early.status).toBe(404);
      expect(early.headers['cache-control']).toBe('no-store');
      // The 404 page shows the hero: asking made the server start on its photos.
      await madeSlide();
      await logsSettle();
      const before = reachedServer(picture);
      const made = await at(picture, { 'Accept-Encoding': 'gzip' });
      expectPicture(made, await get(server.url + picture));
      expect(made.headers['cache-status']).toMatch(new RegExp(`${name}; fwd=miss`));
      await logsSettle();
      // The edge's request, and the direct one above.
      expect(reachedServer(picture) - before).toBe(2);
    });

    it('keeps a made picture like the hashed assets: one request reaches the server, whatever visitors send', async () => {
      const slide = await madeSlide();
      // Pictures no test has asked for yet: the widest WebP and the portrait crop's JPEG.
      const widest = (srcset: string) => srcset.split(', ').at(-1)!.split(' ')[0]!;
      const pictures = [widest(slide.sources!.at(-1)!.srcset), widest(slide.sources![1]!.srcset)];
      for (const url of pictures) {
        expect(url.startsWith(`${PHOTOS_PATH}/`)).toBe(true);
        const direct = await get(server.url + url);
        await logsSettle();
        const before = reachedServer(url);
        const answers = await many(60, 10, (index) =>
          at(`${url}${index % 3 === 0 ? `?v=${index}` : ''}`, {
            'Accept-Encoding': ACCEPT_ENCODINGS[index % ACCEPT_ENCODINGS.length]!.header,
            ...(index % 2 ? { Cookie: `selectedLanguage=en; other=${index}` } : {}),
            'User-Agent': `visitor-${index}`,
            'Accept-Language': index % 4 ? 'de' : 'en',
          }),
        );
        await logsSettle();
        for (const answer of answers) expectPicture(answer, direct);
        expect(reachedServer(url) - before, url).toBe(1);
        expect((await at(url)).headers['cache-status']).toMatch(new RegExp(`${name}; hit`));
      }
    });

    it('answers HEAD, a range and a conditional request for a kept picture at the edge', async () => {
      await madeSlide();
      const direct = await get(server.url + picture);
      await at(picture);
      await logsSettle();
      const before = reachedServer(picture);

      const headers = await head(cache.url + picture);
      expect(headers.status).toBe(200);
      expect(headers.body).toHaveLength(0);
      expect(headers.headers['content-length']).toBe(String(direct.body.length));
      expect(headers.headers['cache-control']).toBe(IMMUTABLE);

      const range = await at(picture, { Range: 'bytes=0-99' });
      expect(range.status).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 0-99/${direct.body.length}`);
      expect(range.body.equals(direct.body.subarray(0, 100))).toBe(true);

      const again = await at(picture, { 'If-None-Match': direct.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.body).toHaveLength(0);

      await logsSettle();
      expect(reachedServer(picture) - before).toBe(0);
    });
  });
}
