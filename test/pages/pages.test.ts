import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestListener } from 'node:http';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { parseHtml } from '../helpers/html.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';

const HERO_TAGLINE: Record<Language, string> = {
  de: 'Ein Abend. Vier Studios. Eine gemeinsame Sendung.',
  en: 'One evening. Four studios. One shared broadcast.',
  es: 'Una noche. Cuatro estudios. Una emisión compartida.',
};

let app: RequestListener;
beforeAll(async () => {
  ({ app } = await testApp());
});

const withCookie = (path: string, lng: string) => request(app).get(path).set('Cookie', `selectedLanguage=${lng}`);

describe('GET / without a language choice', () => {
  it('renders German with the language overlay and every section', async () => {
    const res = await request(app).get('/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr">/);
    expect(res.text).toContain('role="dialog"');
    expect(res.text).toContain('Sprache wählen');
    for (const lng of LANGUAGES) expect(res.text).toContain(`href="?lng=${lng}"`);
    expect(res.text).toContain(HERO_TAGLINE.de);
    expect(res.text).toContain('id="rsvp"');
    expect(res.text).toContain('Studio auswählen');
    expect(res.text).toContain('href="/impressum#Datenschutzerklärung"');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(bootstrapOf(res.text)).toMatchObject({ language: 'de', languageChosen: false });
  });

  it('keeps the rest of the page inert behind the overlay', async () => {
    const res = await request(app).get('/');
    expect(res.text).toContain('<div class="page" inert="">');
  });
});

describe.each(LANGUAGES)('GET / in %s', (lng) => {
  it('renders from the cookie with no overlay', async () => {
    const res = await withCookie('/', lng).expect(200);
    expect(res.text).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${lng}" dir="ltr">`));
    expect(res.text).toContain(HERO_TAGLINE[lng]);
    for (const other of LANGUAGES.filter((l) => l !== lng)) expect(res.text).not.toContain(HERO_TAGLINE[other]);
    expect(res.text).not.toContain('role="dialog"');
    expect(res.text).not.toContain('inert=""');
    const data = bootstrapOf(res.text);
    expect(data).toMatchObject({ language: lng, languageChosen: true });
    expect((data.translations as Record<string, Record<string, string>>).hero!.tagline).toBe(HERO_TAGLINE[lng]);
  });

  it('renders from ?lng= and stores the choice in a cookie', async () => {
    const res = await request(app).get(`/?lng=${lng}`).expect(200);
    expect(res.text).toMatch(new RegExp(`<html lang="${lng}" dir="ltr">`));
    expect(res.text).not.toContain('role="dialog"');
    const cookie = res.headers['set-cookie']![0]!;
    expect(cookie).toMatch(new RegExp(`^selectedLanguage=${lng}; Path=/; Max-Age=31536000; SameSite=Lax`));
  });

  it('renders the legal notice with the full privacy policy', async () => {
    const res = await withCookie('/impressum', lng).expect(200);
    expect(res.text).toMatch(new RegExp(`<html lang="${lng}" dir="ltr">`));
    expect(res.text).toContain('id="Datenschutzerklärung"');
    expect(res.text).toContain('Horizon Media Events GmbH');
    expect(res.text).toContain('FN 123456 a');
    const privacy = res.text.slice(res.text.indexOf('id="Datenschutzerklärung"'));
    const lists = [...privacy.matchAll(/<ul>(.*?)<\/ul>/g)].map((m) => (m[1]!.match(/<li>/g) ?? []).length);
    // The providers of the stream and the maps, the four recipients, the six rights.
    expect(lists).toEqual([2, 4, 6]);
    expect(privacy).toContain('Österreichische Datenschutzbehörde');
    expect(privacy).toContain('2026');
    expect(res.text).toContain('href="/"');
  });

  it('answers an unknown path with a 404 page', async () => {
    const res = await withCookie('/no/such/page', lng).expect(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toMatch(new RegExp(`<html lang="${lng}" dir="ltr">`));
    expect(res.text).toContain('<h1 class="not-found__code">404</h1>');
    expect(res.text).toMatch(/<a class="button button--primary" href="\/"[^>]*>/);
  });
});

describe('language codes that are not de, en or es', () => {
  it.each(['fr', 'DE', 'de-DE', '../en', '<script>', ''])('ignores %j in ?lng= and in the cookie', async (code) => {
    const viaQuery = await request(app)
      .get(`/?lng=${encodeURIComponent(code)}`)
      .expect(200);
    expect(viaQuery.text).toMatch(/<html lang="de" dir="ltr">/);
    expect(viaQuery.text).toContain('role="dialog"');
    expect(viaQuery.headers['set-cookie']).toBeUndefined();
    const viaCookie = await request(app)
      .get('/')
      .set('Cookie', `selectedLanguage=${encodeURIComponent(code)}`)
      .expect(200);
    expect(viaCookie.text).toContain('role="dialog"');
  });
});

describe('the English 404 and overlay texts', () => {
  it('are the ones of the specification', async () => {
    const res = await withCookie('/missing', 'en').expect(404);
    expect(res.text).toContain('Oops! Page not found');
    expect(res.text).toContain('Return to Home');
  });
});

describe('the page markup', () => {
  it('has one executable script, the inline starter at its end, beside the JSON data and the JSON-LD', async () => {
    const res = await request(app).get('/');
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toEqual([' type="application/ld+json"', ' type="application/json" id="bootstrap-data"', '']);
    const starter = (await testApp()).deps.clientAssets.inlineScript.text;
    expect(res.text.endsWith(`<script>${starter}</script></body></html>`)).toBe(true);
    // Nothing but the starter names the app module: no preload asks for it before the first paint.
    expect(res.text.replace(starter, '').includes('/assets/app-')).toBe(false);
    expect(res.text).not.toMatch(/<!--\$[?!]-->/);
  });

  it('holds the hero and the sections below it in place as boundaries the browser hydrates one by one', async () => {
    const { app: rendering } = await testApp();
    const res = await request(rendering).get('/').expect(200);
    // Hero, video, programme, studio cards, picker and footer: each inside a completed boundary, none moved out of place.
    expect(res.text.match(/<!--\$-->/g)).toHaveLength(6);
    expect(res.text).not.toMatch(/<!--\$[?!]-->/);
    expect(res.text.match(/<script/g)).toHaveLength(3);
    expect(res.text).toMatch(/<!--\$--><section id="rsvp"/);
    expect(res.text).toMatch(/<!--\$--><section class="section section--programme"/);
    expect(res.text).toMatch(/<!--\$--><footer/);
    expect(res.text).toMatch(/<!--\$--><header class="hero"/);
  });

  it('preloads the first hero slide with its srcset, so it is fetched once, at low priority', async () => {
    const res = await request(app).get('/');
    expect(res.text).toMatch(
      /<link rel="preload" as="image" fetchPriority="low" imageSrcSet="\/images\/hero\/munich-800\.jpg 800w[^"]*" imageSizes="100vw"/,
    );
    expect(res.text).toMatch(/<img class="hero__slide is-active" [^>]*fetchPriority="low"/);
  });

  it('draws the sample logo with the event’s name in the page: no picture to fetch', async () => {
    const doc = parseHtml((await request(app).get('/?lng=es').expect(200)).text);
    const logo = doc.querySelector('.hero .logo')!;
    expect(logo.tagName).toBe('P');
    expect(logo.getAttribute('role')).toBe('img');
    expect(logo.getAttribute('aria-label')).toBe('Horizon Live 2027');
    expect(logo.querySelector('.logo__lead')!.textContent).toBe('Horizon');
    expect(logo.querySelector('.logo__rest')!.textContent).toBe('Live 2027');
    expect(logo.querySelector('svg.logo__mark')!.getAttribute('aria-hidden')).toBe('true');
    expect(doc.querySelector('img.logo')).toBeNull();
  });

  it('loads a logo image the content names at low priority, without a preload of its own', async () => {
    const content = { ...loadContent(DEFAULT_CONTENT_PATH), logoUrl: '/images/brand.png' };
    const { app: branded } = await testApp({ content });
    const res = await request(branded).get('/').expect(200);
    expect(res.text).toMatch(
      /<img class="logo" src="\/images\/brand\.png" alt="Horizon Live 2027" [^>]*fetchPriority="low"/,
    );
    expect(res.text).not.toContain('<link rel="preload" as="image" href="/images/brand.png"');
    expect(parseHtml(res.text).querySelector('.logo--drawn')).toBeNull();
  });

  it('shows the first slide and its studio in the server HTML, and no other slide', async () => {
    const res = await request(app).get('/');
    expect(res.text).toContain('<p class="hero__studio" data-testid="studio-label">Studio München</p>');
    expect(res.text.match(/class="hero__slide[ "]/g)).toHaveLength(1);
  });

  it('renders the map of a fixed studio so the HTML does not differ between visitors', async () => {
    const [a, b] = await Promise.all([request(app).get('/'), request(app).get('/')]);
    expect(a.text).toContain('Karte von Studio München auf Google Maps öffnen');
    expect(a.text).toBe(b.text);
  });

  it('opens studio sites in a new tab without handing over the page', async () => {
    const res = await request(app).get('/');
    const cards = [...res.text.matchAll(/<a class="studio-card"([^>]*)>/g)].map((m) => m[1]!);
    expect(cards).toHaveLength(4);
    for (const attrs of cards) expect(attrs).toMatch(/target="_blank" rel="noopener noreferrer"/);
  });

  it('holds no frame of the video or map provider: placeholders of its own with links to them', async () => {
    const res = await request(app).get('/?lng=en');
    const doc = parseHtml(res.text);
    expect(doc.querySelectorAll('iframe')).toHaveLength(0);
    // The embed addresses are in the page's data only, for the script to use on a click.
    const markup = res.text.replace(/<script type="application\/json"[^>]*>.*?<\/script>/s, '');
    expect(markup).not.toMatch(/youtube-nocookie\.com|output=embed/);
    const video = doc.querySelector('#rsvp .embed-placeholder')!;
    expect(video.querySelector('img')!.getAttribute('src')).toBe('/images/hero/vienna-1600.jpg');
    expect(video.querySelector('button')!.textContent).toMatch(
      /^Play the live stream – from .*2027.* – loads YouTube$/,
    );
    expect(video.querySelector('.embed-placeholder__link')!.getAttribute('href')).toBe(
      'https://www.youtube.com/watch?v=M7lc1UVf-VE',
    );
    expect(doc.querySelector('.map-panel .embed-placeholder button')!.textContent).toBe(
      'Show the map – loads Google Maps',
    );
    // The 16:9 box holds what fits it on a phone; the provider's notice and "always load" are under it.
    expect(doc.querySelector('#rsvp .video-frame input, #rsvp .video-frame p')).toBeNull();
    const line = doc.querySelector('#rsvp .video-frame + .embed-choice')!;
    expect(line.querySelector('label')!.textContent).toBe('Always load content from YouTube');
    expect(line.querySelector('a')!.getAttribute('href')).toBe('https://policies.google.com/privacy');
    expect(doc.querySelector('.map-panel__box + .embed-choice label')!.textContent).toBe(
      'Always load content from Google Maps',
    );
  });
});

describe('GET /locales/:lng/translation.json', () => {
  it.each(LANGUAGES)('serves the %s dictionary with a validator', async (lng) => {
    const res = await request(app).get(`/locales/${lng}/translation.json`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.hero.tagline).toBe(HERO_TAGLINE[lng]);
    await request(app).get(`/locales/${lng}/translation.json`).set('If-None-Match', res.headers.etag!).expect(304);
  });

  it.each(['fr', '..', '%2e%2e', 'de%2F..%2F..%2Fpackage.json'])('has no dictionary for %s', async (lng) => {
    const res = await request(app).get(`/locales/${lng}/translation.json`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('"dependencies"');
  });
});
