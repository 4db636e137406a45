import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RequestListener } from 'node:http';
import { buildSiteContent, loadContent } from '../../server/content/site-content.ts';
import { CLIENT_BUILD_DIR, DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { testApp } from '../helpers/app.ts';
import { inlineHash, readClientManifest } from '../../server/static/client-assets.ts';

/** The Content-Security-Policy header as directive → sources. */
function policyOf(header: string | undefined): Map<string, string[]> {
  expect(header).toBeDefined();
  return new Map(
    header!.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

let app: RequestListener;
let asset: string;
let styleHash: string;
let scriptHash: string;
beforeAll(async () => {
  const built = await testApp();
  app = built.app;
  asset = readClientManifest(CLIENT_BUILD_DIR).script;
  styleHash = built.deps.clientAssets.inlineStyle.hash;
  scriptHash = built.deps.clientAssets.inlineScript.hash;
});

// The /api endpoints are listed so that they are held to the same headers whatever they answer.
const PATHS = () => [
  '/',
  '/impressum',
  '/no/such/page',
  asset,
  '/locales/en/translation.json',
  '/images/studios/munich-480.jpg',
  '/api/hero-slides',
  '/api/logo',
  '/healthz',
];

describe('security headers on every answer', () => {
  it('are all there', async () => {
    for (const path of PATHS()) {
      const res = await request(app).get(path);
      expect(res.status, path).toBeLessThan(500);
      const policy = policyOf(res.headers['content-security-policy']);
      expect(policy.get('script-src'), path).toEqual(["'self'", `'${scriptHash}'`]);
      expect(policy.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(res.headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['x-powered-by'], path).toBeUndefined();
      // It would keep the embedded video from loading.
      expect(res.headers['cross-origin-embedder-policy'], path).toBeUndefined();
    }
  });

  it('include a policy that allows no evaluated code, and inline only the starter and the stylesheet', async () => {
    const policy = policyOf((await request(app).get('/')).headers['content-security-policy']);
    expect(styleHash).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(scriptHash).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(Object.fromEntries(policy)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'", `'${scriptHash}'`],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", `'${styleHash}'`],
      'style-src-attr': ["'none'"],
      'img-src': ["'self'"],
      'font-src': ["'self'"],
      'connect-src': ["'self'"],
      'frame-src': ['https://www.youtube-nocookie.com', 'https://www.google.com'],
      'frame-ancestors': ["'none'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
    });
  });
});

describe('the Content-Security-Policy follows the configuration and the content file', () => {
  it("allows images from this origin alone when the server makes the backend's pictures itself", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'policy-photos-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const { app } = await testApp(
      { photos: true },
      {
        NODE_ENV: 'test',
        SUPABASE_URL: 'https://abcdefgh.supabase.co',
        SUPABASE_ANON_KEY: 'anon-key',
        IMAGE_HOSTS: 'images.example.com',
        PHOTOS_PATH: folder,
        UPSTREAM_TIMEOUT_MS: '100',
      },
    );
    const policy = policyOf((await request(app).get('/healthz')).headers['content-security-policy']);
    expect(policy.get('img-src')).toEqual(["'self'"]);
  });

  it("allows images from the backend's storage origin and the listed image hosts where it does not", async () => {
    const { app } = await testApp(
      {},
      {
        NODE_ENV: 'test',
        SUPABASE_URL: 'https://abcdefgh.supabase.co',
        SUPABASE_ANON_KEY: 'anon-key',
        IMAGE_HOSTS: 'images.example.com, cdn.example.net:8443',
      },
    );
    const policy = policyOf((await request(app).get('/')).headers['content-security-policy']);
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'https://abcdefgh.supabase.co',
      'https://images.example.com',
      'https://cdn.example.net:8443',
    ]);
  });

  it('allows the frames and images the content file names, and only those', async () => {
    const { raw, public: shown } = loadContent(DEFAULT_CONTENT_PATH);
    const content = buildSiteContent(
      {
        ...raw,
        video: { ...raw.video, embedUrl: 'https://player.vimeo.com/video/1?controls=0' },
        logo: 'https://brand.example.org/logo.svg',
        heroSlides: [
          {
            image: 'https://photos.example.org/a.jpg',
            srcset: 'https://photos.example.org/a-800.jpg 800w, https://resized.example.org/a.jpg 1600w',
            studio: 'A',
          },
        ],
        studios: raw.studios.map((studio, i) =>
          i === 0 ? { ...studio, mapEmbedUrl: 'https://www.openstreetmap.org/export/embed.html?bbox=1' } : studio,
        ),
      },
      shown.languages,
    );
    const { app } = await testApp({ content });
    const policy = policyOf((await request(app).get('/')).headers['content-security-policy']);
    expect(policy.get('frame-src')).toEqual([
      'https://player.vimeo.com',
      'https://www.openstreetmap.org',
      'https://www.google.com',
    ]);
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'https://brand.example.org',
      'https://photos.example.org',
      'https://resized.example.org',
    ]);
  });

  it('asks browsers to upgrade insecure requests only when the site is served over https', async () => {
    const http = await testApp();
    expect(
      policyOf((await request(http.app).get('/')).headers['content-security-policy']).has('upgrade-insecure-requests'),
    ).toBe(false);
    const https = await testApp({}, { NODE_ENV: 'test', PUBLIC_ORIGIN: 'https://event.example.com' });
    expect(
      policyOf((await request(https.app).get('/')).headers['content-security-policy']).get('upgrade-insecure-requests'),
    ).toEqual([]);
  });
});

describe('the page within that policy', () => {
  it.each(['/', '/impressum', '/no/such/page', '/?lng=en'])(
    '%s has no style attribute or event handler attribute, and no style element or script but the allowed ones',
    async (path) => {
      const { text } = await request(app).get(path);
      expect(text.match(/<style[\s>]/gi)).toEqual(['<style>']);
      expect(text).not.toMatch(/\sstyle="/i);
      expect(text).not.toMatch(/\son[a-z]+="/i);
      // Every script is non-executable data, but the one inline starter the policy allows by its hash.
      const executable = [...text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].filter(
        ([, attributes]) => !/type="application\/(ld\+)?json"/.test(attributes!),
      );
      expect(executable.map(([, attributes, body]) => [attributes, inlineHash(body!)])).toEqual([['', scriptHash]]);
    },
  );
});
