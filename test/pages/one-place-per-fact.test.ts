import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTranslations } from '../../server/content/translations.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES, type SampleLanguage } from '../helpers/languages.ts';
import { bodyBytes, bootstrapOf, testApp } from '../helpers/app.ts';
import { jsonLdOf, metaContent, parseHtml } from '../helpers/html.ts';
import { readSingleEvent } from '../helpers/icalendar.ts';

/**
 * Every fact is written once per language: the event's name in each locale file's `product`,
 * the studios' cities and countries in the content. Renaming the event is one edit per file.
 */

const ORIGIN = 'https://event.example.com';
const ENV = { NODE_ENV: 'test', PUBLIC_ORIGIN: ORIGIN };
const OLD_NAME = 'Horizon Live 2027';
/** A different new name per language, so that no language can borrow another's. */
const NEW_NAME: Record<SampleLanguage, string> = {
  de: 'Nordlicht Gala 2028',
  en: 'Northern Lights Gala 2028',
  es: 'Gala Aurora Boreal 2028',
};

describe('renaming the event: the `product` line of each locale file, and nothing else', () => {
  let app: RequestListener;
  let localesDir: string;
  beforeAll(async () => {
    localesDir = mkdtempSync(path.join(tmpdir(), 'locales-'));
    cpSync(LOCALES_DIR, localesDir, { recursive: true });
    for (const lng of LANGUAGES) {
      const file = path.join(localesDir, lng, 'translation.json');
      const dictionary = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(dictionary.product).toBe(OLD_NAME);
      writeFileSync(file, JSON.stringify({ ...dictionary, product: NEW_NAME[lng] }, null, 2));
    }
    ({ app } = await testApp({ translations: await loadTranslations(localesDir, LANGUAGES) }, ENV));
  });
  afterAll(() => rmSync(localesDir, { recursive: true, force: true }));

  const page = async (url: string, status = 200) => {
    const res = await request(app).get(url).expect(status);
    expect(res.text).not.toContain(OLD_NAME);
    return { html: res.text, doc: parseHtml(res.text) };
  };

  it.each(LANGUAGES)('renames the %s landing page: title, hero, video, meta, Open Graph and JSON-LD', async (lng) => {
    const name = NEW_NAME[lng];
    const { html, doc } = await page(`/?lng=${lng}`);
    expect(doc.title.startsWith(name)).toBe(true);
    expect(doc.querySelector('h1.hero__title')!.textContent).toBe(name);
    // The link to the stream at its provider, which stands in the player's place until it loads.
    expect(doc.querySelector('#rsvp .embed-placeholder__link')!.textContent).toContain(name);
    expect(doc.querySelector('.logo')!.getAttribute('aria-label')).toBe(name);
    expect(doc.querySelector('.logo__name')!.textContent).toBe(name);
    expect(metaContent(doc, 'description')!.startsWith(`${name}:`)).toBe(true);
    expect(metaContent(doc, 'og:site_name')).toBe(name);
    expect(metaContent(doc, 'og:title')).toBe(doc.title);
    expect(metaContent(doc, 'og:description')).toBe(metaContent(doc, 'description'));
    expect(metaContent(doc, 'twitter:title')).toBe(doc.title);
    const event = jsonLdOf(html);
    expect(event.name).toBe(name);
    expect(event.description).toBe(metaContent(doc, 'description'));
    // The browser hydrates with the same dictionary, so its texts name the event alike.
    expect(bootstrapOf(html).translations.product).toBe(name);
  });

  it.each(LANGUAGES)('renames the %s legal page: its title, editorial line and privacy scope', async (lng) => {
    const name = NEW_NAME[lng];
    const { doc } = await page(`/impressum?lng=${lng}`);
    expect(doc.title.endsWith(name)).toBe(true);
    expect(metaContent(doc, 'og:site_name')).toBe(name);
    const text = doc.querySelector('main')!.textContent!;
    // The editorial line and the privacy policy's scope each name the event.
    expect(text.split(name).length - 1).toBe(2);
  });

  it.each(LANGUAGES)('renames the %s 404 page', async (lng) => {
    const { doc } = await page(`/no/such/page?lng=${lng}`, 404);
    expect(doc.title.endsWith(NEW_NAME[lng])).toBe(true);
  });

  it.each(LANGUAGES)('renames the %s calendar entry, whose UID and file name stay', async (lng) => {
    const res = await bodyBytes(request(app).get(`/event.ics?lng=${lng}`)).expect(200);
    const { event } = readSingleEvent(res.body as Buffer);
    expect(event.SUMMARY).toBe(NEW_NAME[lng]);
    expect(event.DESCRIPTION!.startsWith(`${NEW_NAME[lng]}:`)).toBe(true);
    expect(Object.values(event).join('\n')).not.toContain(OLD_NAME);
    expect(event.UID).toBe('horizon-live-2027@example.com');
    expect(res.headers['content-disposition']).toBe('attachment; filename=horizon-live-2027.ics');
  });

  describe('the logo: no word of the old name in any logo a page shows or points to', () => {
    const OLD_WORDS = OLD_NAME.toLowerCase().split(' ');
    let withoutSlides: RequestListener;
    beforeAll(async () => {
      // Without slides the previews fall back to the logo: the path where a drawn picture would show.
      const content = { ...loadContent(DEFAULT_CONTENT_PATH), heroSlides: [] };
      ({ app: withoutSlides } = await testApp(
        { content, translations: await loadTranslations(localesDir, LANGUAGES) },
        ENV,
      ));
    });

    /** The text of a picture this site serves: an SVG's text elements and its label; nothing for a raster image. */
    const pictureText = async (server: RequestListener, address: string) => {
      const res = await request(server).get(address.replace(ORIGIN, '')).buffer(true);
      if (!String(res.headers['content-type']).startsWith('image/svg+xml')) return '';
      const svg = parseHtml(`<body>${String(res.body instanceof Buffer ? res.body.toString() : res.text)}</body>`);
      return [...svg.querySelectorAll('text, [aria-label]')]
        .map((element) => `${element.textContent} ${element.getAttribute('aria-label') ?? ''}`)
        .join(' ');
    };

    /**
     * Every logo's text on a page: the drawn logo's name and label, an image logo's alternative
     * text, and the text in each picture of this site the page points to (the logo, icons, the
     * Open Graph and Twitter images, the JSON-LD's images).
     */
    const logoTexts = async (server: RequestListener, html: string) => {
      const doc = parseHtml(html);
      const texts = [...doc.querySelectorAll('.logo')].map(
        (logo) => `${logo.textContent} ${logo.getAttribute('aria-label') ?? ''} ${logo.getAttribute('alt') ?? ''}`,
      );
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
      const pictures = [
        ...[...doc.querySelectorAll('img.logo, link[rel~="icon"]')].map(
          (element) => element.getAttribute('src') ?? element.getAttribute('href')!,
        ),
        ...['og:image', 'twitter:image'].flatMap((key) => metaContent(doc, key) ?? []),
        ...blocks.flatMap(([, json]) => [(JSON.parse(json!) as { image?: string[] }).image ?? []].flat()),
      ].filter((address) => address.startsWith('/') || address.startsWith(ORIGIN));
      for (const address of new Set(pictures)) texts.push(await pictureText(server, address));
      return texts.join(' ').toLowerCase();
    };

    const oldWordsIn = (text: string) => OLD_WORDS.filter((word) => text.includes(word));

    it.each(LANGUAGES)('in %s: on /, /impressum and a 404, with slides and without', async (lng) => {
      for (const server of [app, withoutSlides]) {
        for (const [url, status] of [
          [`/?lng=${lng}`, 200],
          [`/impressum?lng=${lng}`, 200],
          [`/no/such/page?lng=${lng}`, 404],
        ] as const) {
          const { text } = await request(server).get(url).expect(status);
          expect(oldWordsIn(await logoTexts(server, text)), url).toEqual([]);
        }
        // The landing page's logo names the event by its new name.
        const { text } = await request(server).get(`/?lng=${lng}`);
        expect(await logoTexts(server, text)).toContain(NEW_NAME[lng].toLowerCase());
      }
    });

    it.each(LANGUAGES)('in %s: in the calendar entry, which points to no picture', async (lng) => {
      for (const server of [app, withoutSlides]) {
        const { text } = await request(server).get(`/event.ics?lng=${lng}`).buffer(true).expect(200);
        const { event } = readSingleEvent(Buffer.from(text));
        expect(Object.keys(event).filter((key) => /^(ATTACH|IMAGE)/.test(key))).toEqual([]);
        expect(event.SUMMARY).toBe(NEW_NAME[lng]);
      }
    });
  });

  it('serves the renamed locale files to the browser', async () => {
    for (const lng of LANGUAGES) {
      const res = await request(app).get(`/locales/${lng}/translation.json`).expect(200);
      expect(JSON.parse(res.text).product).toBe(NEW_NAME[lng]);
      expect(res.text).not.toContain(OLD_NAME);
    }
  });
});

describe('the shipped locale files', () => {
  it('name the event only in `product`: every other text refers to it', () => {
    for (const lng of LANGUAGES) {
      const raw = readFileSync(path.join(LOCALES_DIR, lng, 'translation.json'), 'utf8');
      const dictionary = JSON.parse(raw) as { product: string };
      expect(raw.split(dictionary.product).length - 1, lng).toBe(1);
    }
  });
});

describe('places in the language of the page', () => {
  let app: RequestListener;
  beforeAll(async () => {
    ({ app } = await testApp({}, ENV));
  });

  const cards = async (lng: Language) => {
    const doc = parseHtml((await request(app).get(`/?lng=${lng}`).expect(200)).text);
    return {
      doc,
      cities: [...doc.querySelectorAll('.studio-card__city')].map((city) => city.textContent),
    };
  };

  it('names the studios’ countries in English, Spanish and German', async () => {
    expect((await cards('en')).cities).toEqual([
      'Ismaning, Germany',
      'Marbella, Spain',
      'Vienna, Austria',
      'Dübendorf, Switzerland',
    ]);
    expect((await cards('es')).cities).toEqual([
      'Ismaning, Alemania',
      'Marbella, España',
      'Viena, Austria',
      'Dübendorf, Suiza',
    ]);
    expect((await cards('de')).cities).toEqual([
      'Ismaning, Deutschland',
      'Marbella, Spanien',
      'Wien, Österreich',
      'Dübendorf, Schweiz',
    ]);
  });

  it('lists the hero’s cities from the studios, and the addresses with the country in the page’s language', async () => {
    const { doc } = await cards('en');
    expect(doc.querySelector('.hero__cities')!.textContent).toBe('Munich · Marbella · Vienna · Zurich');
    expect([...doc.querySelectorAll('.studio-list__address')].map((address) => address.textContent)).toEqual([
      'Medienallee 7, 85737 Ismaning, Germany',
      'Avenida del Mar 12, 29602 Marbella (Málaga), Spain',
      'Vorgartenstraße 206, 1020 Wien, Austria',
      'Überlandstrasse 105, 8600 Dübendorf, Switzerland',
    ]);
    expect(metaContent(doc, 'description')).toContain('Live from Munich, Marbella, Vienna and Zurich');
  });

  it('sends the country names in the page’s data, so the browser never names them itself', async () => {
    const { app: data } = bootstrapOf((await request(app).get('/?lng=es').expect(200)).text);
    expect(data.content.studios.map((studio) => studio.byLanguage.es!.country)).toEqual([
      'Alemania',
      'España',
      'Austria',
      'Suiza',
    ]);
    expect(data.content.company.country.en!).toBe('Austria');
  });

  it('names the company’s country in the legal notice in the page’s language', async () => {
    const doc = parseHtml((await request(app).get('/impressum?lng=es').expect(200)).text);
    const owner = doc.querySelector('section[aria-labelledby="owner-heading"] p')!.textContent!;
    expect(owner).toContain('1020 Wien');
    expect(owner.endsWith('Austria')).toBe(true);
    expect(doc.querySelector('#Datenschutzerklärung')!.textContent).toContain('Praterstraße 1, 1020 Wien, Austria');
  });
});
