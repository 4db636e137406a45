import request from 'supertest';
import type { RequestListener } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { isNotModified } from '../../server/http/not-modified.ts';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { testApp } from '../helpers/app.ts';

/** What a browser's fetch with cache: 'no-store' sends (the page's polls of /api/live), and a reload. */
const NO_CACHE = { 'Cache-Control': 'no-cache', Pragma: 'no-cache' };

describe('isNotModified', () => {
  const tag = '"abc"';
  it.each([
    ['the ETag itself', { 'if-none-match': tag }, true],
    ['the ETag with no-cache', { 'if-none-match': tag, 'cache-control': 'no-cache', pragma: 'no-cache' }, true],
    ['the ETag among others', { 'if-none-match': '"x", "abc"' }, true],
    ['the weak form of the ETag', { 'if-none-match': `W/${tag}` }, true],
    ['any current answer', { 'if-none-match': '*' }, true],
    ['another ETag', { 'if-none-match': '"other"', 'cache-control': 'no-cache' }, false],
    ['no condition', { 'cache-control': 'no-cache' }, false],
  ])('%s', (_what, headers, expected) => {
    expect(isNotModified(headers, { etag: tag })).toBe(expected);
  });

  it('reads If-Modified-Since only without If-None-Match, against the Last-Modified', () => {
    const lastModified = 'Mon, 01 Mar 2027 08:00:00 GMT';
    const since = { 'if-modified-since': 'Mon, 01 Mar 2027 09:00:00 GMT', 'cache-control': 'no-cache' };
    expect(isNotModified(since, { 'last-modified': lastModified })).toBe(true);
    const withOtherTag = { ...since, 'if-none-match': '"other"' };
    expect(isNotModified(withOtherTag, { etag: tag, 'last-modified': lastModified })).toBe(false);
    expect(isNotModified(since, {})).toBe(false);
  });
});

describe('a conditional request as a browser sends it, with Cache-Control: no-cache', () => {
  let app: RequestListener;
  beforeAll(async () => {
    ({ app } = await testApp());
  });
  const { script } = readClientManifest(CLIENT_BUILD_DIR);

  it.each(['/', '/impressum', '/api/live', '/api/hero-slides', '/api/logo', '/locales/en/translation.json', script])(
    '%s: a matching If-None-Match gets 304, another the whole answer',
    async (path) => {
      // Twice: a page's first answer renders it, the second is the kept one.
      for (let i = 0; i < 2; i++) {
        const first = await request(app).get(path).set('Accept-Encoding', 'gzip').expect(200);
        const etag = first.headers.etag!;
        expect(etag).toBeTruthy();
        const again = await request(app)
          .get(path)
          .set('Accept-Encoding', 'gzip')
          .set(NO_CACHE)
          .set('If-None-Match', etag);
        expect(again.status).toBe(304);
        expect(again.headers.etag).toBe(etag);
        await request(app)
          .get(path)
          .set('Accept-Encoding', 'gzip')
          .set(NO_CACHE)
          .set('If-None-Match', '"someone-else"')
          .expect(200);
      }
    },
  );
});
