import fs, { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestListener } from 'node:http';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { bodyBytes, testApp } from '../helpers/app.ts';

const { script, stylesheet } = readClientManifest(CLIENT_BUILD_DIR);
let app: RequestListener;
beforeAll(async () => {
  ({ app } = await testApp());
});

const onDisk = (asset: string) => readFileSync(path.join(CLIENT_BUILD_DIR, asset));

describe('hashed assets', () => {
  it.each([
    ['br', 'gzip, deflate, br, zstd', '.br'],
    ['gzip', 'gzip, deflate', '.gz'],
    ['br', 'br;q=1, gzip;q=0.5', '.br'],
    ['gzip', 'br;q=0.5, gzip', '.gz'],
    ['gzip', 'br;q=0, gzip', '.gz'],
    ['br', '*', '.br'],
  ])('are sent as the precompressed %s copy for Accept-Encoding %j', async (coding, accept, suffix) => {
    for (const asset of [script, stylesheet]) {
      const res = await bodyBytes(request(app).get(asset).set('Accept-Encoding', accept)).expect(200);
      expect(res.headers['content-encoding']).toBe(coding);
      // Sent as the build wrote it, not compressed again on the way.
      expect(res.headers['content-length']).toBe(String(onDisk(asset + suffix).length));
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['content-type']).toMatch(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect((res.body as Buffer).equals(onDisk(asset))).toBe(true);
    }
  });

  it.each(['identity', 'deflate;q=0, br;q=0, gzip;q=0'])(
    'are sent as they are for Accept-Encoding %j',
    async (accept) => {
      const res = await bodyBytes(request(app).get(script).set('Accept-Encoding', accept)).expect(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((res.body as Buffer).equals(onDisk(script))).toBe(true);
    },
  );

  it('carry a validator per coding and answer 304 to it', async () => {
    const br = await request(app).get(script).set('Accept-Encoding', 'br');
    const gzip = await request(app).get(script).set('Accept-Encoding', 'gzip');
    expect(br.headers.etag).toBeDefined();
    expect(br.headers.etag).not.toBe(gzip.headers.etag);
    await request(app).get(script).set('Accept-Encoding', 'br').set('If-None-Match', br.headers.etag!).expect(304);
  });

  it('answer HEAD with the headers of GET and no body', async () => {
    const res = await request(app).head(stylesheet).set('Accept-Encoding', 'br').expect(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBe(String(onDisk(stylesheet + '.br').length));
    expect(res.text ?? '').toBe('');
  });

  it('serve source maps with the same lifetime', async () => {
    const res = await request(app).get(`${script}.map`).expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    '/assets/app-NOSUCHHASH.js',
    `${script}.br`,
    `${script}.gz`,
    '/assets/manifest.json',
    '/assets/',
    '/assets',
    '/assets/..%2fmanifest.json',
  ])('%s is the 404 page, never stored', async (missing) => {
    const res = await request(app).get(missing).expect(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('pages', () => {
  it.each(['/', '/impressum', '/?lng=es'])(
    '%s is private, revalidated each time, with an ETag that yields 304',
    async (page) => {
      const res = await request(app).get(page).expect(200);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers.etag).toMatch(/^W\/".+"$/);
      const again = await request(app).get(page).set('If-None-Match', res.headers.etag!).expect(304);
      expect(again.headers['cache-control']).toBe('private, no-cache');
      expect(again.text ?? '').toBe('');
    },
  );

  it('have a different ETag per language', async () => {
    const [de, en] = await Promise.all(
      ['de', 'en'].map((lng) => request(app).get('/').set('Cookie', `selectedLanguage=${lng}`)),
    );
    expect(de!.headers.etag).not.toBe(en!.headers.etag);
  });

  it('are compressed for clients that accept it', async () => {
    const res = await request(app).get('/').set('Accept-Encoding', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it.each([
    ['br', 'gzip, deflate, br, zstd'],
    ['gzip', 'br;q=0.5, gzip'],
    ['br', '*'],
    [undefined, 'identity'],
  ])('are sent %s, as the assets are, for Accept-Encoding %j', async (coding, accept) => {
    const res = await request(app).get('/').set('Accept-Encoding', accept).expect(200);
    expect(res.headers['content-encoding']).toBe(coding);
  });

  it('answer 404 with no-store', async () => {
    const res = await request(app).get('/missing').expect(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('locale files', () => {
  it('are public for five minutes with an ETag', async () => {
    const res = await request(app).get('/locales/de/translation.json').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toBeDefined();
  });
});

describe('images and other public files', () => {
  it('may be kept for an hour', async () => {
    const res = await request(app).get('/images/studios/munich-480.jpg').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers.etag).toBeDefined();
  });

  it('are looked up on disk only for names that exist there: pages and 404s never wait for a lookup', async () => {
    const stat = vi.spyOn(fs, 'stat');
    await request(app).get('/').expect(200);
    await request(app).get('/impressum').expect(200);
    await request(app).get('/images/no-such-picture.jpg').expect(404);
    expect(stat).not.toHaveBeenCalled();
    await request(app).get('/favicon.svg').expect(200);
    await request(app).get('/images/hero/munich-800.jpg').expect(200);
    expect(stat).toHaveBeenCalledTimes(2);
  });
});

describe('validators of bodies sent in several codings', () => {
  const CODINGS = { br: 'br', gzip: 'gzip', identity: 'identity' } as const;
  const paths = () => [
    '/',
    '/impressum',
    '/api/hero-slides',
    '/api/logo',
    '/locales/en/translation.json',
    script,
    stylesheet,
    '/robots.txt',
    '/sitemap.xml',
    '/event.ics',
    '/images/studios/munich-480.jpg',
    '/favicon.svg',
  ];

  it.each(paths())('%s: a strong ETag per coding or one weak ETag for all, and 304 for either', async (url) => {
    const answers = await Promise.all(
      Object.values(CODINGS).map(async (accept) => {
        const res = await request(app).get(url).set('Accept-Encoding', accept).expect(200);
        return { accept, coding: res.headers['content-encoding'] ?? 'identity', etag: res.headers.etag! };
      }),
    );
    for (const a of answers) {
      expect(a.etag).toMatch(/^(W\/)?"[^"]+"$/);
      for (const b of answers) {
        if (a.coding === b.coding) expect(a.etag).toBe(b.etag);
        else if (a.etag.startsWith('W/')) expect(b.etag).toBe(a.etag);
        // A strong validator names one coding's bytes (RFC 9110 8.8.3).
        else expect(b.etag).not.toBe(a.etag);
      }
    }
    for (const asked of answers) {
      for (const held of answers) {
        // A client holding one coding's validator asks again, maybe with another Accept-Encoding.
        const res = await request(app).get(url).set('Accept-Encoding', asked.accept).set('If-None-Match', held.etag);
        const sameBody = held.etag === answers.find((a) => a.accept === asked.accept)!.etag;
        expect(res.status).toBe(sameBody ? 304 : 200);
      }
    }
  });
});
