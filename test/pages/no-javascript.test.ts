import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '../../server/config/paths.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { testApp } from '../helpers/app.ts';
import { parseHtml } from '../helpers/html.ts';
import { addressLine } from '../../shared/page-data.ts';

/** What a visitor without JavaScript gets: everything here works from the server's HTML alone. */

const ORIGIN = 'https://event.example.com';
const ENV = { NODE_ENV: 'test', PUBLIC_ORIGIN: ORIGIN };

let app: RequestListener;
beforeAll(async () => {
  ({ app } = await testApp({}, ENV));
});

const get = (path: string, lng?: Language) =>
  request(app)
    .get(path)
    .set(lng ? { Cookie: `selectedLanguage=${lng}` } : {});

describe('a shareable link in any language', () => {
  it.each(
    LANGUAGES.flatMap((lng) => [
      ['/', lng],
      ['/impressum', lng],
    ]),
  )('%s?lng=%s answers 200 in it, kept private, and stores the choice', async (path, lng) => {
    const res = await get(`${path}?lng=${lng}`, lng === 'de' ? 'es' : 'de');
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['set-cookie']![0]).toMatch(new RegExp(`^selectedLanguage=${lng}; Path=/;`));
    expect(parseHtml(res.text).documentElement.lang).toBe(lng);
  });
});

describe('language links without scripts', () => {
  it.each(['/', '/impressum'])(
    'on %s: every overlay and dropdown link loads that language on the same page',
    async (path) => {
      const doc = parseHtml((await get(path)).text);
      expect(doc.querySelector('.language-menu details > summary')).not.toBeNull();
      const links = [...doc.querySelectorAll('[role="dialog"] a[hreflang], .language-menu a[hreflang]')];
      expect(links).toHaveLength(2 * LANGUAGES.length);
      for (const link of links) {
        const lng = link.getAttribute('hreflang') as Language;
        const target = new URL(link.getAttribute('href')!, `${ORIGIN}${path}`);
        expect(target.pathname).toBe(path);
        const res = await request(app)
          .get(target.pathname + target.search)
          .expect(200);
        const page = parseHtml(res.text);
        expect(page.documentElement.lang).toBe(lng);
        expect(page.querySelector('[role="dialog"]')).toBeNull();
        expect(res.headers['set-cookie']![0]).toMatch(new RegExp(`^selectedLanguage=${lng};`));
      }
    },
  );
});

describe('the studio addresses for visitors without scripts', () => {
  it('are all listed, with links to their maps, inside <noscript> in the picker section', async () => {
    const { deps } = await testApp({}, ENV);
    const doc = parseHtml((await get('/', 'en')).text);
    const section = doc.querySelector('section[aria-labelledby="location-heading"]')!;
    const items = [...section.querySelectorAll('noscript li')];
    expect(section.querySelector('noscript h3')!.textContent).toBe('All studios');
    expect(items).toHaveLength(4);
    deps.content.public.studios.forEach((studio, i) => {
      expect(items[i]!.querySelector('address')!.textContent).toBe(addressLine(studio.byLanguage.en!));
      const link = items[i]!.querySelector('a')!;
      expect(link.getAttribute('href')).toBe(studio.mapLinkUrl);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.textContent).toBe(`Open map ${studio.byLanguage.en!.name} (opens in a new tab)`);
    });
    // The list is the page's only <noscript>: no frame of the video or map provider loads without scripts either.
    expect(doc.querySelectorAll('noscript')).toHaveLength(1);
    expect(doc.querySelectorAll('iframe')).toHaveLength(0);
  });
});

describe('every section without scripts', () => {
  const GERMANY: Record<Language, string> = { de: 'Deutschland', en: 'Germany', es: 'Alemania' };
  const CITIES: Record<Language, string> = {
    de: 'München · Marbella · Wien · Zürich',
    en: 'Munich · Marbella · Vienna · Zurich',
    es: 'Múnich · Marbella · Viena · Zúrich',
  };
  const dictionary = (lng: Language) =>
    JSON.parse(readFileSync(join(LOCALES_DIR, lng, 'translation.json'), 'utf8')) as Record<string, any>;

  it.each(LANGUAGES)('is in the %s HTML, the hero with its first slide and studio', async (lng) => {
    const t = dictionary(lng);
    const doc = parseHtml((await get(`/?lng=${lng}`)).text);
    const text = (selector: string) => doc.querySelector(selector)?.textContent;
    expect(text('.hero__title')).toBe('Horizon Live 2027');
    expect(text('.hero__tagline')).toBe(t.hero.tagline);
    expect(text('.hero__when')).toMatch(/2027/);
    expect(text('.hero__studio')).toBe('Studio München');
    expect(doc.querySelector('.hero__slide.is-active')!.getAttribute('src')).toBe('/images/hero/munich-1600.jpg');
    expect(text('#video-heading')).toBe(t.video.heading);
    // In the player's place, a link to the stream at its provider.
    expect(doc.querySelector('#rsvp .embed-placeholder__link')!.getAttribute('href')).toBe(
      'https://www.youtube.com/watch?v=M7lc1UVf-VE',
    );
    expect(text('#studios-heading')).toBe(t.studios.heading);
    expect(doc.querySelectorAll('.studio-card')).toHaveLength(4);
    expect(text('#location-heading')).toBe(t.location.heading);
    expect(text('.map-panel__address')).toBe(`Medienallee 7, 85737 Ismaning, ${GERMANY[lng]}`);
    expect(text('.hero__cities')).toBe(CITIES[lng]);
    expect([...doc.querySelectorAll('.footer a')].map((a) => a.getAttribute('href'))).toEqual([
      '/impressum',
      '/impressum#Datenschutzerklärung',
    ]);
  });
});
