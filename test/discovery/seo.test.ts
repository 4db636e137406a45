import request from 'supertest';
import type { RequestListener } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedHeroSource } from '../../server/hero/from-content.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES, localeOf } from '../helpers/languages.ts';
import { fixedHeroAssets, shownTexts, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { jsonLdOf, metaContent, metaContents, parseHtml } from '../helpers/html.ts';
import { changeableLive } from '../helpers/live.ts';

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
const ogLocale = (lng: Language) => localeOf(lng).replace('-', '_');

describe('the head for search engines and link previews', () => {
  it.each(LANGUAGES)('gives the %s landing page its canonical, its alternates and its preview', async (lng) => {
    const res = await get('/', lng);
    const doc = parseHtml(res.text);
    const t = await shownTexts(lng);
    const canonical = `${ORIGIN}/?lng=${lng}`;

    expect(doc.documentElement.lang).toBe(lng);
    expect(doc.title).toBe(t('meta.title'));
    expect(metaContent(doc, 'description')).toBe(t('meta.description'));
    expect([...doc.head.querySelectorAll('link[rel="canonical"]')].map((l) => l.getAttribute('href'))).toEqual([
      canonical,
    ]);
    const alternates = [...doc.head.querySelectorAll('link[rel="alternate"]')].map((l) => [
      l.getAttribute('hreflang'),
      l.getAttribute('href'),
    ]);
    expect(alternates).toEqual([
      ['de', `${ORIGIN}/?lng=de`],
      ['en', `${ORIGIN}/?lng=en`],
      ['es', `${ORIGIN}/?lng=es`],
      ['x-default', `${ORIGIN}/`],
    ]);

    expect(metaContent(doc, 'og:type')).toBe('website');
    expect(metaContent(doc, 'og:site_name')).toBe('Horizon Live 2027');
    expect(metaContent(doc, 'og:title')).toBe(t('meta.title'));
    expect(metaContent(doc, 'og:description')).toBe(t('meta.description'));
    expect(metaContent(doc, 'og:url')).toBe(canonical);
    expect(metaContent(doc, 'og:image')).toBe(`${ORIGIN}/images/hero/munich-1600.jpg`);
    expect(metaContent(doc, 'og:image:type')).toBe('image/jpeg');
    expect(metaContent(doc, 'og:image:width')).toBe('1600');
    expect(metaContent(doc, 'og:locale')).toBe(ogLocale(lng));
    expect(metaContents(doc, 'og:locale:alternate').sort()).toEqual(
      LANGUAGES.filter((l) => l !== lng)
        .map(ogLocale)
        .sort(),
    );
    expect(metaContent(doc, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(doc, 'twitter:title')).toBe(t('meta.title'));
    expect(metaContent(doc, 'twitter:description')).toBe(t('meta.description'));
    expect(metaContent(doc, 'twitter:image')).toBe(`${ORIGIN}/images/hero/munich-1600.jpg`);
  });

  it('names the language the page is rendered in as canonical: ?lng=, else the cookie, else German', async () => {
    const canonicalOf = async (path: string, lng?: Language) =>
      parseHtml((await get(path, lng)).text)
        .head.querySelector('link[rel="canonical"]')!
        .getAttribute('href');
    expect(await canonicalOf('/')).toBe(`${ORIGIN}/?lng=de`);
    expect(await canonicalOf('/', 'es')).toBe(`${ORIGIN}/?lng=es`);
    expect(await canonicalOf('/?lng=en&utm_source=mail', 'es')).toBe(`${ORIGIN}/?lng=en`);
  });

  it('names the legal notice by its one path, however it was reached', async () => {
    const doc = parseHtml((await get('/impressum/', 'en')).text);
    expect(doc.title).toBe((await shownTexts('en'))('meta.impressumTitle'));
    expect(doc.head.querySelector('link[rel="canonical"]')!.getAttribute('href')).toBe(`${ORIGIN}/impressum?lng=en`);
    expect(doc.head.querySelector('link[rel="alternate"][hreflang="x-default"]')!.getAttribute('href')).toBe(
      `${ORIGIN}/impressum`,
    );
    expect(metaContent(doc, 'og:url')).toBe(`${ORIGIN}/impressum?lng=en`);
  });

  it('keeps a 404 out of the index: noindex, and no canonical, alternates or preview', async () => {
    const res = await get('/no/such/page', 'en').expect(404);
    const doc = parseHtml(res.text);
    expect(metaContent(doc, 'robots')).toBe('noindex');
    expect(doc.head.querySelector('link[rel="canonical"], link[rel="alternate"]')).toBeNull();
    expect(doc.head.querySelector('meta[property^="og:"], meta[name^="twitter:"]')).toBeNull();
    expect(res.text).not.toContain('application/ld+json');
  });

  it.each([
    [
      'the first hero slide',
      { heroSlides: [{ image: 'https://images.example.net/a.jpg', studio: 'A' }], logoUrl: '/images/logo.svg' },
      'https://images.example.net/a.jpg',
    ],
    ['the logo when there are no slides', { heroSlides: [], logoUrl: '/images/logo.svg' }, `${ORIGIN}/images/logo.svg`],
    [
      'the logo while slides are unknown',
      { heroSlides: null, logoUrl: 'https://cdn.example.net/logo.png' },
      'https://cdn.example.net/logo.png',
    ],
  ])('previews with %s, from the page data of the request', async (_case, assets, image) => {
    const { app: withAssets } = await testApp({ heroSource: fixedHeroAssets(assets) }, ENV);
    const res = await request(withAssets).get('/').set('Cookie', 'selectedLanguage=en');
    const doc = parseHtml(res.text);
    expect(metaContent(doc, 'og:image')).toBe(image);
    expect(metaContent(doc, 'twitter:image')).toBe(image);
    expect(jsonLdOf(res.text).image).toEqual([image]);
  });

  it("previews with the 1280-wide JPEG of the first slide's pictures made here, with its type and size", async () => {
    const made = (name: string) => `/images/photos/PX98YXM32i7vFke4JuEHdB-${name}`;
    const slide = {
      studio: 'Studio München',
      image: made('l1920.jpg'),
      srcset: [480, 720, 960, 1280, 1920].map((width) => `${made(`l${width}.jpg`)} ${width}w`).join(', '),
      sizes: 'max(100vw, 177.78vh)',
      sources: [{ type: 'image/webp', srcset: `${made('l1920.webp')} 1920w`, sizes: 'max(100vw, 177.78vh)' }],
    };
    const { app: withPictures } = await testApp(
      { heroSource: fixedHeroAssets({ heroSlides: [slide], logoUrl: null }) },
      ENV,
    );
    const res = await request(withPictures).get('/').set('Cookie', 'selectedLanguage=en');
    const doc = parseHtml(res.text);
    const image = `${ORIGIN}${made('l1280.jpg')}`;
    expect(metaContent(doc, 'og:image')).toBe(image);
    expect(metaContent(doc, 'og:image:type')).toBe('image/jpeg');
    expect(metaContent(doc, 'og:image:width')).toBe('1280');
    expect(metaContent(doc, 'og:image:height')).toBe('720');
    expect(metaContent(doc, 'twitter:image')).toBe(image);
    expect(metaContent(doc, 'twitter:card')).toBe('summary_large_image');
    expect(jsonLdOf(res.text).image).toEqual([image]);
    // Open Graph reads the image's properties after the image they describe.
    const order = [...doc.head.querySelectorAll('meta[property^="og:image"]')].map((meta) =>
      meta.getAttribute('property'),
    );
    expect(order).toEqual(['og:image', 'og:image:type', 'og:image:width', 'og:image:height']);
  });

  it('previews without an image when there is neither slide nor logo', async () => {
    const { app: bare } = await testApp({ heroSource: fixedHeroAssets({ heroSlides: [], logoUrl: null }) }, ENV);
    const res = await request(bare).get('/');
    const doc = parseHtml(res.text);
    expect(metaContent(doc, 'og:image')).toBeUndefined();
    expect(doc.head.querySelector('meta[property^="og:image"]')).toBeNull();
    expect(metaContent(doc, 'twitter:card')).toBe('summary');
    expect(jsonLdOf(res.text).image).toBeUndefined();
  });

  it('builds every address from PUBLIC_ORIGIN: Host and X-Forwarded-* headers change nothing', async () => {
    const spoofed = {
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'http',
      'X-Forwarded-For': '1.2.3.4, 5.6.7.8',
      Cookie: 'selectedLanguage=en',
    };
    for (const path of ['/', '/impressum']) {
      const [plain, forged] = await Promise.all([
        request(app).get(path).set('Cookie', 'selectedLanguage=en'),
        request(app).get(path).set(spoofed),
      ]);
      expect(forged.status).toBe(200);
      expect(forged.text).not.toContain('evil.example');
      expect(forged.text).toBe(plain.text);
    }
  });
});

describe('the structured data', () => {
  it('describes the event as one schema.org Event with its four studios as places', async () => {
    const { deps } = await testApp({}, ENV);
    const data = jsonLdOf((await get('/', 'en')).text);
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Horizon Live 2027',
      description:
        'Horizon Live 2027: one evening, four studios, one broadcast. Live from Munich, Marbella, Vienna and Zurich – date, live stream and studios at a glance.',
      inLanguage: 'en',
      url: `${ORIGIN}/?lng=en`,
      image: [`${ORIGIN}/images/hero/munich-1600.jpg`],
      startDate: '2027-03-18T18:00:00+01:00',
      endDate: '2027-03-18T21:30:00+01:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
      organizer: {
        '@type': 'Organization',
        name: 'Horizon Media Events GmbH',
        url: 'https://horizon-live.example.com',
      },
    });
    expect(Date.parse(data.startDate)).toBe(deps.content.event.start.getTime());
    expect(Date.parse(data.endDate)).toBe(deps.content.event.end.getTime());
    expect(data.location[0]).toEqual({ '@type': 'VirtualLocation', url: `${ORIGIN}/?lng=en#rsvp` });
    expect(data.location.slice(1)).toEqual(
      deps.content.public.studios.map((studio) => ({
        '@type': 'Place',
        name: studio.byLanguage.en!.name,
        url: studio.siteUrl,
        address: {
          '@type': 'PostalAddress',
          streetAddress: studio.street,
          postalCode: studio.postalCode,
          addressLocality: studio.byLanguage.en!.city,
          addressCountry: studio.countryCode,
        },
      })),
    );
    expect(data.location[3].address).toMatchObject({
      streetAddress: 'Vorgartenstraße 206',
      postalCode: '1020',
      addressLocality: 'Vienna',
      addressCountry: 'AT',
    });
    expect(data.location.map((place: { name?: string }) => place.name)).toContain('Studio Wien');
  });

  it("carries the programme's segments as sub-events, each from its studio, until the next", async () => {
    const { deps } = await testApp({}, ENV);
    const data = jsonLdOf((await get('/', 'en')).text);
    const place = data.location.slice(1);
    expect(
      data.subEvent.map((segment: { name: string; startDate: string; endDate: string; location: unknown }) => [
        segment.name,
        segment.startDate.slice(11, 16),
        segment.endDate.slice(11, 16),
        place.indexOf(place.find((studio: unknown) => JSON.stringify(studio) === JSON.stringify(segment.location))),
      ]),
    ).toEqual([
      ['Welcome', '18:00', '18:15', 2],
      ['Keynote: the year ahead', '18:15', '18:55', 0],
      ['New products, live on stage', '18:55', '19:40', 3],
      ['Music break', '19:40', '20:00', 1],
      ['Panel: working across borders', '20:00', '20:45', 2],
      ['Horizon Awards', '20:45', '21:15', 1],
      ['Farewell', '21:15', '21:30', 0],
    ]);
    expect(data.subEvent[0]).toMatchObject({ '@type': 'Event', startDate: '2027-03-18T18:00:00+01:00' });
    expect(Date.parse(data.subEvent[0].startDate)).toBe(deps.content.public.event.programme[0]!.start);
    // In the page's language.
    expect(jsonLdOf((await get('/?lng=de')).text).subEvent[6].name).toBe('Ausklang');
  });

  it('names the stream as a live broadcast while it is live, as Google marks a livestream, and only then', async () => {
    const { deps } = await testApp({}, ENV);
    const { start, end } = deps.content.public.event;
    const { video } = deps.content.public;
    const at = async (now: number, content = deps.content) => {
      const { app: timed } = await testApp({ now: () => now, content }, ENV);
      return jsonLdOf((await request(timed).get('/').set('Cookie', 'selectedLanguage=en')).text);
    };
    const live = await at(start + 60_000);
    expect(live.subjectOf).toEqual({
      '@type': 'VideoObject',
      name: 'Horizon Live 2027',
      description: live.description,
      thumbnailUrl: [new URL(video.poster!.src, ORIGIN).href],
      uploadDate: '2027-03-18T18:00:00+01:00',
      embedUrl: video.embedUrl,
      publication: {
        '@type': 'BroadcastEvent',
        isLiveBroadcast: true,
        startDate: '2027-03-18T18:00:00+01:00',
        endDate: '2027-03-18T21:30:00+01:00',
      },
    });
    expect(live.subjectOf.thumbnailUrl[0]).toMatch(/^https:\/\/event\.example\.com\/images\/.+\.jpg$/);
    for (const now of [start - 60_000, end + 60_000]) expect((await at(now)).subjectOf).toBeUndefined();
    const cancelled = editedContent((file) => (file.event.status = 'EventCancelled'));
    expect((await at(start + 60_000, cancelled)).subjectOf).toBeUndefined();
  });

  it('names the recording after the end, once named, with a Clip per chapter that opens the page at it', async () => {
    const { deps } = await testApp({}, ENV);
    const { start, end, programme } = deps.content.public.event;
    const recording = {
      ...deps.content.public.video,
      embedUrl: 'https://www.youtube-nocookie.com/embed/recording01',
      watchUrl: 'https://www.youtube.com/watch?v=recording01',
      beginsAtSeconds: 270,
    };
    const { app: after } = await testApp(
      { now: () => end + 3_600_000, liveSource: changeableLive({ recording }) },
      ENV,
    );
    const data = jsonLdOf((await request(after).get('/').set('Cookie', 'selectedLanguage=en')).text);
    // Google's video guidelines: a VideoObject needs a name, a picture and a date; a Clip a name, its start and an address.
    expect(data.subjectOf).toMatchObject({
      '@type': 'VideoObject',
      name: 'Horizon Live 2027',
      description: data.description,
      thumbnailUrl: [new URL(deps.content.public.video.poster!.src, ORIGIN).href],
      uploadDate: '2027-03-18T21:30:00+01:00',
      embedUrl: recording.embedUrl,
    });
    expect(data.subjectOf).not.toHaveProperty('publication');
    const seconds = (instant: number) => (instant - start) / 1000 - 270;
    expect(data.subjectOf.hasPart).toHaveLength(programme.length);
    expect(data.subjectOf.hasPart[0]).toEqual({
      '@type': 'Clip',
      name: 'Welcome',
      startOffset: 0,
      endOffset: seconds(programme[1]!.start),
      url: `${ORIGIN}/?lng=en#chapter-${programme[0]!.id}`,
    });
    expect(data.subjectOf.hasPart.at(-1)).toEqual({
      '@type': 'Clip',
      name: 'Farewell',
      startOffset: seconds(programme.at(-1)!.start),
      url: `${ORIGIN}/?lng=en#chapter-${programme.at(-1)!.id}`,
    });
    // Before it is named, no video: the stream has ended.
    const { app: unnamed } = await testApp({ now: () => end + 3_600_000 }, ENV);
    expect(
      jsonLdOf((await request(unnamed).get('/').set('Cookie', 'selectedLanguage=en')).text).subjectOf,
    ).toBeUndefined();
  });

  it('is in the language of the page', async () => {
    const data = jsonLdOf((await get('/?lng=es')).text);
    expect(data.description).toBe((await shownTexts('es'))('meta.description'));
    expect(data.description).toContain('En directo desde Múnich, Marbella, Viena y Zúrich');
    expect(data.location[3].address.addressLocality).toBe('Viena');
    expect(data.url).toBe(`${ORIGIN}/?lng=es`);
  });

  it('is only on the landing page', async () => {
    expect((await get('/impressum', 'en')).text).not.toContain('application/ld+json');
  });

  it('keeps content that contains </script> inside the JSON, read back unchanged', async () => {
    const hostileName = '</script><script>alert(1)</script>';
    const hostileCity = '<!--<script> & \u2028 "]}\'';
    const content = editedContent((file) => {
      file.studios[1].name = hostileName;
      file.studios[1].city = hostileCity;
      file.event.status = 'EventCancelled';
    });
    const { app: hostile } = await testApp({ content, heroSource: embeddedHeroSource(content) }, ENV);
    const baseline = (await get('/', 'en')).text;
    const res = await request(hostile).get('/').set('Cookie', 'selectedLanguage=en');

    const scriptOpenings = (html: string) => html.match(/<script/gi)!.length;
    expect(scriptOpenings(res.text)).toBe(scriptOpenings(baseline));
    expect(res.text).not.toContain(hostileName);
    expect(res.text).not.toContain('<!--<script>');
    const data = jsonLdOf(res.text);
    expect(data.location[2].name).toBe(hostileName);
    expect(data.location[2].address.addressLocality).toBe(hostileCity);
    expect(data.eventStatus).toBe('https://schema.org/EventCancelled');
  });
});
