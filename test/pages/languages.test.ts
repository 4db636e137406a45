import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkContentText, loadContent } from '../../server/content/site-content.ts';
import { checkTranslations } from '../../server/content/translation-check.ts';
import { loadTranslations } from '../../server/content/translations.ts';
import { CLIENT_BUILD_DIR, DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { parseHtml } from '../helpers/html.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { withFixtureLanguages } from '../helpers/fixture-languages.ts';

/** French and a right-to-left Arabic added to the shipped three by files alone. */
const fixture = withFixtureLanguages();
afterAll(() => rmSync(path.dirname(fixture.localesDir), { recursive: true, force: true }));

const FRENCH_TAGLINE = 'Une soirée. Quatre studios. Une émission.';
const ARABIC_TAGLINE = 'أمسية واحدة. أربعة استوديوهات. بث واحد.';

describe('the shipped content', () => {
  it('lists the sample languages, German first', () => {
    expect(LANGUAGES).toEqual(['de', 'en', 'es']);
    expect(
      loadContent(DEFAULT_CONTENT_PATH).public.languages.map(({ code, name, locale, dir }) => [
        code,
        name,
        locale,
        dir,
      ]),
    ).toEqual([
      ['de', 'Deutsch', 'de-AT', 'ltr'],
      ['en', 'English', 'en-GB', 'ltr'],
      ['es', 'Español', 'es-ES', 'ltr'],
    ]);
  });
});

describe('a language added by a folder and a line in the content file', () => {
  let app: Awaited<ReturnType<typeof testApp>>['app'];
  beforeAll(async () => {
    const content = loadContent(fixture.contentPath, fixture.contentPath, fixture.localesDir);
    expect(checkTranslations(fixture.localesDir, fixture.languages)).toEqual({ problems: [], warnings: [] });
    const translations = await loadTranslations(fixture.localesDir, fixture.languages);
    ({ app } = await testApp({ content, translations }, { NODE_ENV: 'test' }));
  });

  it('is offered in the overlay and the dropdown, in the content file order, with its flag or a neutral mark', async () => {
    const doc = parseHtml((await request(app).get('/').expect(200)).text);
    const names = (selector: string) => [...doc.querySelectorAll(`${selector} li`)].map((item) => item.textContent);
    expect(names('.overlay__choices')).toEqual(['Deutsch', 'English', 'Español', 'Français', 'العربية']);
    expect(names('.language-menu__list')).toEqual(names('.overlay__choices'));
    const french = doc.querySelector('.overlay__choices a[href="?lng=fr"]')!;
    expect(french.querySelector('.flag svg')).not.toBeNull();
    const arabic = doc.querySelector('.overlay__choices a[href="?lng=ar"]')!;
    expect(arabic.querySelector('.flag--none')).not.toBeNull();
    expect(arabic.querySelector('span[lang="ar"]')!.getAttribute('dir')).toBe('rtl');
  });

  it('answers ?lng=fr and the cookie in French, and sets the cookie', async () => {
    const linked = await request(app).get('/?lng=fr').expect(200);
    expect(linked.text).toMatch(/^<!DOCTYPE html><html lang="fr" dir="ltr">/);
    expect(linked.text).toContain(FRENCH_TAGLINE);
    expect(linked.headers['set-cookie']).toEqual([expect.stringMatching(/^selectedLanguage=fr;/)]);
    const returning = await request(app).get('/impressum').set('Cookie', 'selectedLanguage=fr').expect(200);
    expect(returning.text).toMatch(/<html lang="fr" dir="ltr">/);
    // Offered, so a shared cache may keep it like the shipped languages.
    expect(returning.headers['cdn-cache-control']).toBe('max-age=5');
    expect(bootstrapOf(returning.text)).toMatchObject({ language: 'fr', languageChosen: true });
  });

  it('renders a right-to-left language with dir="rtl" on the root element, from the server', async () => {
    const res = await request(app).get('/').set('Cookie', 'selectedLanguage=ar').expect(200);
    expect(res.text).toMatch(/^<!DOCTYPE html><html lang="ar" dir="rtl">/);
    expect(res.text).toContain(ARABIC_TAGLINE);
  });

  it('names every offered language in hreflang, Open Graph, the sitemap and the JSON-LD', async () => {
    const html = (await request(app).get('/?lng=fr').expect(200)).text;
    const doc = parseHtml(html);
    const hreflang = [...doc.querySelectorAll('link[rel="alternate"]')].map((link) => link.getAttribute('hreflang'));
    expect(hreflang).toEqual(['de', 'en', 'es', 'fr', 'ar', 'x-default']);
    const property = (name: string) =>
      [...doc.querySelectorAll(`meta[property="${name}"]`)].map((meta) => meta.getAttribute('content'));
    expect(property('og:locale')).toEqual(['fr_FR']);
    expect(property('og:locale:alternate')).toEqual(['de_AT', 'en_GB', 'es_ES', 'ar_EG']);
    const jsonLd = JSON.parse(doc.querySelector('script[type="application/ld+json"]')!.textContent!) as {
      inLanguage: string;
    };
    expect(jsonLd.inLanguage).toBe('fr');
    const sitemap = (await request(app).get('/sitemap.xml').expect(200)).text;
    for (const code of fixture.languages) {
      expect(sitemap).toContain(`<loc>http://localhost:3000/?lng=${code}</loc>`);
      expect(sitemap).toContain(`hreflang="${code}"`);
    }
  });

  it('serves its locale file and its calendar entry; a language not listed stays a 404 and German', async () => {
    const file = await request(app).get('/locales/ar/translation.json').expect(200);
    expect((file.body as { hero: { tagline: string } }).hero.tagline).toBe(ARABIC_TAGLINE);
    await request(app).get('/locales/it/translation.json').expect(404);
    const calendar = await request(app).get('/event.ics?lng=fr').buffer(true).expect(200);
    // Unfolded: a calendar line longer than 75 octets goes on after a line break and a space.
    expect(String(calendar.text).replace(/\r\n /g, '')).toContain('?lng=fr#rsvp');
    const unlisted = await request(app).get('/?lng=it').expect(200);
    expect(unlisted.text).toMatch(/<html lang="de" dir="ltr">/);
  });
});

describe('the check of a listed language', () => {
  const contentWith = (languages: string[]) => {
    const content = JSON.parse(readFileSync(fixture.contentPath, 'utf8')) as { languages: string[] };
    return JSON.stringify({ ...content, languages }, null, 2);
  };

  it('refuses a language without a folder, on the line of the language, naming the file', () => {
    const { problems } = checkContentText(contentWith(['de', 'en', 'es', 'it']), Date.now(), fixture.localesDir);
    expect(problems).toEqual([
      { line: 8, message: 'languages.3 "it": locales/it/translation.json: cannot be read (ENOENT)' },
    ]);
  });

  it('refuses a language block without its fields, naming the file, the line and the field', () => {
    const file = path.join(fixture.localesDir, 'ar', 'translation.json');
    const original = readFileSync(file, 'utf8');
    try {
      const edited = JSON.parse(original) as { language: Record<string, unknown> };
      delete edited.language.name;
      edited.language.dir = 'rtl-ish';
      edited.language.locale = 'not a locale';
      edited.language.flag = 'XX';
      writeFileSync(file, JSON.stringify(edited, null, 2));
      const { problems } = checkContentText(contentWith(fixture.languages), Date.now(), fixture.localesDir);
      expect(problems.map((problem) => problem.message)).toEqual([
        `languages.4 "ar": locales/ar/translation.json:2: language.name must be the language's name in itself, such as "Français"`,
        'languages.4 "ar": locales/ar/translation.json:3: language.locale "not a locale" must be a BCP 47 locale such as "fr-FR"',
        'languages.4 "ar": locales/ar/translation.json:4: language.dir "rtl-ish" must be "ltr" or "rtl"',
        'languages.4 "ar": locales/ar/translation.json:7: language.flag "XX" is not a region the flag set draws (ISO 3166 codes such as "FR")',
      ]);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('refuses a missing folder beside another problem, naming the language by its place in the file', () => {
    const { problems } = checkContentText(contentWith(['de', 'EN', 'en', 'es', 'it']), Date.now(), fixture.localesDir);
    expect(problems.map((problem) => problem.message)).toEqual([
      'languages.1 "EN" is not a language code such as "fr" or "pt-BR"',
      'languages.4 "it": locales/it/translation.json: cannot be read (ENOENT)',
    ]);
  });

  it('refuses a code that is not a language code, and one listed twice', () => {
    const { problems } = checkContentText(contentWith(['de', 'EN', 'de', 'en', 'es']), Date.now(), fixture.localesDir);
    expect(problems.map((problem) => problem.message)).toEqual([
      'languages.1 "EN" is not a language code such as "fr" or "pt-BR"',
      'languages.2 "de" is already languages.0',
    ]);
  });
});

describe('the built server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ CONTENT_PATH: fixture.contentPath, LOCALES_PATH: fixture.localesDir });
  });
  afterAll(() => server?.stop());

  it('offers a language added by files alone, with no rebuild', async () => {
    const html = await (await fetch(`${server.url}/?lng=ar`)).text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="ar" dir="rtl">/);
    expect(html).toContain(ARABIC_TAGLINE);
    const locale = await fetch(`${server.url}/locales/fr/translation.json`);
    expect(locale.status).toBe(200);
  });
});

describe('the browser bundle', () => {
  it('holds no language list, name or locale: the browser learns them from the page', () => {
    const scripts = readdirSync(path.join(CLIENT_BUILD_DIR, 'assets')).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = readFileSync(path.join(CLIENT_BUILD_DIR, 'assets', file), 'utf8');
      for (const fact of ['Deutsch', 'Español', 'de-AT', 'en-GB', 'es-ES'])
        expect(code, `${file}: ${fact}`).not.toContain(fact);
    }
  });
});

describe('a flag drawn by the language itself', () => {
  const folder = path.join(fixture.localesDir, 'ar');
  const file = path.join(folder, 'translation.json');
  const withFlag = (flag: string, svg: string) => {
    const original = readFileSync(file, 'utf8');
    const edited = JSON.parse(original) as { language: Record<string, unknown> };
    edited.language.flag = flag;
    writeFileSync(file, JSON.stringify(edited, null, 2));
    writeFileSync(path.join(folder, flag), svg);
    try {
      return checkContentText(
        JSON.stringify({ ...JSON.parse(readFileSync(fixture.contentPath, 'utf8')), languages: fixture.languages }),
        Date.now(),
        fixture.localesDir,
      );
    } finally {
      writeFileSync(file, original);
    }
  };

  it('is taken from an SVG file in its folder', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 3 2"><rect width="3" height="2" fill="#006c35"/></svg>';
    const { content, problems } = withFlag('flag.svg', svg);
    expect(problems).toEqual([]);
    expect(content!.public.languages.find((language) => language.code === 'ar')!.flagSvg).toBe(svg);
  });

  it('is refused when it could run or load anything', () => {
    for (const svg of [
      '<svg onload="alert(1)"></svg>',
      '<svg><script>alert(1)</script></svg>',
      '<svg><image href="https://tracker.example/x.png"/></svg>',
      '<html><body>not a drawing</body></html>',
    ]) {
      const { problems } = withFlag('bad.svg', svg);
      expect(
        problems.map((problem) => problem.message),
        svg,
      ).toEqual([
        expect.stringContaining(
          'language.flag "bad.svg" must be an SVG drawing without scripts, event handlers or outside references',
        ),
      ]);
    }
  });
});
