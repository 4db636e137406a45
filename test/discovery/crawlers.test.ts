import { XMLParser, XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { testApp } from '../helpers/app.ts';
import { parseHtml } from '../helpers/html.ts';

const ORIGIN = 'https://event.example.com';

let app: RequestListener;
beforeAll(async () => {
  ({ app } = await testApp({}, { NODE_ENV: 'test', PUBLIC_ORIGIN: ORIGIN }));
});

describe('GET /robots.txt', () => {
  it('lets every crawler in and points to the sitemap at the public origin', async () => {
    const res = await request(app).get('/robots.txt').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const lines = res.text.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    expect(lines.filter((line) => /^Disallow:\s*\S/.test(line))).toEqual([]);
  });
});

describe('GET /sitemap.xml', () => {
  const PAGES = ['/', '/impressum'];

  async function parsedSitemap() {
    const res = await request(app).get('/sitemap.xml').expect(200);
    expect(XMLValidator.validate(res.text)).toBe(true);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'url' || name === 'xhtml:link',
    });
    return { res, xml: parser.parse(res.text) as Record<string, any> };
  }

  it('is well-formed XML in the sitemaps.org and XHTML namespaces', async () => {
    const { res, xml } = await parsedSitemap();
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(xml.urlset.xmlns).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(xml.urlset['xmlns:xhtml']).toBe('http://www.w3.org/1999/xhtml');
  });

  it('lists every page in every language, each with all its language versions and x-default', async () => {
    const { xml } = await parsedSitemap();
    const urls = xml.urlset.url as { loc: string; 'xhtml:link': { rel: string; hreflang: string; href: string }[] }[];
    expect(urls.map((url) => url.loc)).toEqual(
      PAGES.flatMap((path) => LANGUAGES.map((lng) => `${ORIGIN}${path}?lng=${lng}`)),
    );
    for (const url of urls) {
      const path = new URL(url.loc).pathname;
      expect(url['xhtml:link']).toEqual([
        ...LANGUAGES.map((lng) => ({ rel: 'alternate', hreflang: lng, href: `${ORIGIN}${path}?lng=${lng}` })),
        { rel: 'alternate', hreflang: 'x-default', href: `${ORIGIN}${path}` },
      ]);
    }
  });

  it('lists exactly the addresses the pages name as canonical, with the same alternates', async () => {
    const { xml } = await parsedSitemap();
    for (const url of xml.urlset.url as { loc: string; 'xhtml:link': { hreflang: string; href: string }[] }[]) {
      const target = new URL(url.loc);
      const doc = parseHtml(
        (
          await request(app)
            .get(target.pathname + target.search)
            .expect(200)
        ).text,
      );
      expect(doc.head.querySelector('link[rel="canonical"]')!.getAttribute('href')).toBe(url.loc);
      const alternates = [...doc.head.querySelectorAll('link[rel="alternate"]')].map((l) => ({
        hreflang: l.getAttribute('hreflang'),
        href: l.getAttribute('href'),
      }));
      expect(alternates).toEqual(url['xhtml:link'].map(({ hreflang, href }) => ({ hreflang, href })));
    }
  });
});

describe('the crawler files', () => {
  it.each(['/robots.txt', '/sitemap.xml'])(
    '%s is built from PUBLIC_ORIGIN, whatever the Host and X-Forwarded-* headers say',
    async (path) => {
      const plain = await request(app).get(path);
      const forged = await request(app)
        .get(path)
        .set({ Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'http' });
      expect(forged.text).toBe(plain.text);
      expect(forged.text).not.toContain('evil.example');
    },
  );
});
