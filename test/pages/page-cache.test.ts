import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../scripts/harness/content-coding.ts';
import {
  countingTranslations,
  fixedHeroAssets,
  type LabelledAssets,
  rawGet,
  testApp,
  type RawResponse,
} from '../helpers/app.ts';
import { consoleCalls } from '../setup.ts';

const decoded = (res: RawResponse) =>
  decodeBody(res.body, res.headers['content-encoding'] as string | undefined).toString();

/** Renders from the moment the app serves: start-up builds per-language files too. */
async function appCountingRenders(overrides: Parameters<typeof testApp>[0] = {}) {
  const translations = await countingTranslations();
  const { app } = await testApp({ ...overrides, translations });
  const atStart = translations.renders;
  return { app, renders: () => translations.renders - atStart };
}

describe('the page cache', () => {
  it('renders a page variant once, whatever address shows it', async () => {
    const { app, renders } = await appCountingRenders();
    const bodies = new Set<string>();
    for (const path of ['/impressum', '/impressum/', '/impressum?ref=mail', '/impressum?lng=fr']) {
      bodies.add(decoded(await rawGet(app, path, { Cookie: 'selectedLanguage=en' })));
    }
    expect(bodies.size).toBe(1);
    expect(renders()).toBe(1);
  });

  it('shares one render among concurrent first requests', async () => {
    const { app, renders } = await appCountingRenders();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => request(app).get('/').set('Cookie', 'selectedLanguage=es')),
    );
    expect(answers.every((res) => res.status === 200 && res.text.includes('<html lang="es" dir="ltr">'))).toBe(true);
    expect(renders()).toBe(1);
  });

  it('keeps the overlay and the chosen variants apart', async () => {
    const { app } = await testApp();
    const first = await request(app).get('/');
    const returning = await request(app).get('/').set('Cookie', 'selectedLanguage=de');
    expect(first.text).toContain('role="dialog"');
    expect(returning.text).not.toContain('role="dialog"');
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['identity', undefined],
  ])('answers Accept-Encoding: %s with %s', async (accept, encoding) => {
    const { app } = await testApp();
    const res = await rawGet(app, '/', { 'Accept-Encoding': accept });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decoded(res)).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr">/);
  });

  it('answers 304 to a visitor who has the page, with an ETag per variant', async () => {
    const { app } = await testApp();
    const german = await request(app).get('/').set('Cookie', 'selectedLanguage=de');
    const english = await request(app).get('/').set('Cookie', 'selectedLanguage=en');
    expect(german.headers.etag).toBeDefined();
    expect(german.headers.etag).not.toBe(english.headers.etag);
    const again = await request(app)
      .get('/')
      .set('Cookie', 'selectedLanguage=de')
      .set('If-None-Match', german.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const switched = await request(app)
      .get('/')
      .set('Cookie', 'selectedLanguage=en')
      .set('If-None-Match', german.headers.etag!);
    expect(switched.status).toBe(200);
  });

  it('renders again when the backend data changes, and not before', async () => {
    const assets: LabelledAssets = {
      heroSlides: [{ image: '/images/hero/vienna-1600.jpg', studio: 'Studio Wien' }],
      logoUrl: null,
    };
    const source = fixedHeroAssets(assets);
    let current = assets;
    source.get = async () => current;
    source.current = () => current;
    const { app, renders } = await appCountingRenders({ heroSource: source });

    expect((await request(app).get('/')).text).toContain('>Studio Wien</p>');
    await request(app).get('/');
    expect(renders()).toBe(1);

    current = { heroSlides: [{ image: '/images/hero/zurich-1600.jpg', studio: 'Studio Zürich' }], logoUrl: null };
    expect((await request(app).get('/')).text).toContain('>Studio Zürich</p>');
    expect(renders()).toBe(2);
  });

  it('keeps no page whose render failed', async () => {
    consoleCalls('error');
    const real = await countingTranslations();
    let failNext = false;
    const translations = {
      ...real,
      forRequest(language: Parameters<typeof real.forRequest>[0]) {
        if (failNext) {
          failNext = false;
          throw new Error('dictionary unavailable');
        }
        return real.forRequest(language);
      },
    };
    const { app } = await testApp({ translations });
    failNext = true;
    const failed = await request(app).get('/impressum');
    expect(failed.status).toBe(500);
    expect(failed.headers['cache-control']).toBe('no-store');
    expect((await request(app).get('/impressum')).status).toBe(200);
  });
});
