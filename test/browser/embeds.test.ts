import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import type { Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { contentFileWith, eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import type { Visitor } from './driver/visitor.ts';
import { FakeProvider } from './fake-provider.ts';
import { waitForFocusScrolledTo, waitForHydration } from './journey.ts';
import { setUpBrowsers } from './site.ts';

/**
 * Issue 36: nothing reaches the video or map provider before the visitor asks. The content's
 * embed addresses point at stand-in providers on loopback origins of their own, over https, which
 * count every connection and request; a sample of pages, phases, languages and visitors.
 */
const browsers = setUpBrowsers();
const VIDEO_ID = 'M7lc1UVf-VE';
type Phase = 'before' | 'live';
let video: FakeProvider;
let maps: FakeProvider;
const servers = {} as Record<Phase, RunningServer>;

beforeAll(async () => {
  [video, maps] = await Promise.all([FakeProvider.start(), FakeProvider.start()]);
  const minute = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
  const content = (start: number) =>
    contentFileWith((file) => {
      moveEvent(file, eventFieldsAt(start, 180));
      file.video.embedUrl = `${video.origin}/embed/${VIDEO_ID}?controls=0&rel=0&playsinline=1`;
      for (const studio of file.studios)
        studio.mapEmbedUrl = `${maps.origin}/maps?q=${encodeURIComponent(studio.address)}&output=embed`;
    });
  [servers.before, servers.live] = await Promise.all([
    startServer({ CONTENT_PATH: content(minute + 3 * 60 * MINUTE_MS) }),
    startServer({ CONTENT_PATH: content(minute - 60 * MINUTE_MS) }),
  ]);
});
afterAll(async () => {
  await Promise.all([...Object.values(servers).map((server) => server?.stop()), video?.close(), maps?.close()]);
});

const resetProviders = () => [video, maps].forEach((provider) => provider.reset());
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the page to its end as a visitor scrolls, a screen at a time. */
async function readToTheEnd(visitor: Visitor): Promise<void> {
  for (let screen = 0; screen < 30; screen++) {
    const atEnd = await visitor.evaluate(() => {
      window.scrollBy({ top: window.innerHeight * 0.8, behavior: 'instant' });
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await pause(100);
    if (atEnd) return;
  }
}

/** Records, in each document, whether the page had a user's activation when each frame joined it. */
async function watchFrameActivations(visitor: Visitor): Promise<void> {
  await visitor.addInitScript(() => {
    if (window !== window.top) return;
    const seen: (boolean | null)[] = [];
    (window as unknown as { __frameActivations: typeof seen }).__frameActivations = seen;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLIFrameElement) seen.push(navigator.userActivation?.isActive ?? null);
    }).observe(document, { childList: true, subtree: true });
  });
}
const frameActivations = (visitor: Visitor) =>
  visitor.evaluate(() => (window as unknown as { __frameActivations: (boolean | null)[] }).__frameActivations);

async function switchLanguage(visitor: Visitor, language: Language): Promise<void> {
  await visitor.click('.language-menu summary');
  await visitor.click(`.language-menu a[hreflang="${language}"]`);
  await visitor.waitFor((lng) => document.documentElement.lang === lng, language);
}

/** Waits until a request whose decoded path starts with `prefix` and contains `text` has reached the provider. */
async function waitForRequest(provider: FakeProvider, prefix: string, text = ''): Promise<void> {
  const arrived = () =>
    provider.requests.some(
      (request) => request.path.startsWith(prefix) && decodeURIComponent(request.path).includes(text),
    );
  for (const deadline = Date.now() + 15_000; !arrived(); await pause(50))
    if (Date.now() > deadline) {
      const reached = provider.requests.map((request) => decodeURIComponent(request.path));
      throw new Error(
        `no request for ${prefix} ${text} reached the stand-in provider, which had: ${reached.join(', ') || 'none'}`,
      );
    }
}

describe('before the visitor asks, nothing reaches the video or map provider', () => {
  it.each([
    ['before', 'a first visit choosing English', null, 'en'],
    ['live', 'a first visit choosing Spanish', null, 'es'],
    ['before', 'a returning Spanish visitor', 'es', 'de'],
    ['live', 'a returning English visitor', 'en', 'es'],
  ] as const)(
    'phase %s: %s, reading /, choosing a studio, switching language and /impressum',
    async (phase, _who, returning, next) => {
      resetProviders();
      const visitor = await browsers.visitor(servers[phase].url, returning ? { language: returning } : {});
      await visitor.goto('/');
      await waitForHydration(visitor);
      if (!returning) {
        await visitor.click(`[role="dialog"] a[hreflang="${next}"]`);
        await visitor.waitFor(() => !document.querySelector('[role="dialog"]'));
      }
      const label = await visitor.text('#rsvp .embed-placeholder__load');
      expect(label).toMatch(phase === 'live' ? /live|directo|jetzt live/i : /2027|20\d\d/);
      await readToTheEnd(visitor);
      await visitor.select('#studio-select', 'vienna');
      await visitor.waitFor(() => document.querySelector('.map-panel__name')?.textContent?.includes('Wien'));
      if (returning) await switchLanguage(visitor, next);
      await readToTheEnd(visitor);
      await visitor.click('.footer a[href="/impressum"]');
      await visitor.waitForLocation('/impressum');
      await visitor.goto('/');
      await waitForHydration(visitor);
      await readToTheEnd(visitor);
      await pause(1000);
      expect(await visitor.count('iframe')).toBe(0);
      expect({ video: video.connections, maps: maps.connections }).toEqual({ video: 0, maps: 0 });
      expect([...video.requests, ...maps.requests]).toEqual([]);
      expect(await visitor.evaluate(() => localStorage.getItem('alwaysLoadEmbeds'))).toBeNull();
    },
  );

  it('without scripts: the placeholders are links to the stream and the map at the provider, and no frame loads', async () => {
    resetProviders();
    const visitor = await browsers.visitor(servers.live.url, { language: 'en', javaScript: false });
    await visitor.goto('/');
    await readToTheEnd(visitor);
    expect(await visitor.attribute('#rsvp .embed-placeholder__link', 'href')).toBe(
      `${video.origin}/watch?v=${VIDEO_ID}`,
    );
    expect(await visitor.isVisible('#rsvp .embed-placeholder__link')).toBe(true);
    expect(await visitor.isVisible('#rsvp .embed-placeholder__load')).toBe(false);
    expect(await visitor.text('.map-panel .embed-placeholder__link')).toContain(
      'Open the map of Studio München at Google Maps',
    );
    await visitor.goto('/impressum');
    await pause(1000);
    expect(await visitor.count('iframe')).toBe(0);
    expect(video.reached || maps.reached).toBe(false);
  });
});

describe('one click', () => {
  it('loads the stream, asked to start with captions and controls in the page’s language, and focuses it; another the map', async () => {
    resetProviders();
    const visitor = await browsers.visitor(servers.live.url, {
      language: 'es',
      viewport: { width: 1280, height: 800 },
    });
    await watchFrameActivations(visitor);
    await visitor.goto('/');
    await waitForHydration(visitor);
    const historyLength = await visitor.evaluate(() => history.length);
    // The 16:9 box and the line under it, with the provider's notice and "always load".
    const box = () =>
      visitor.evaluate(() =>
        JSON.stringify(
          ['.video-frame', '.video-frame + .embed-choice'].map((s) =>
            document.querySelector(s)!.getBoundingClientRect(),
          ),
        ),
      );
    await visitor.click('#rsvp .embed-placeholder__load');
    const before = await box();
    await waitForRequest(video, '/embed/');
    const [player] = video.requests;
    const asked = new URL(player!.path, video.origin).searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({
      autoplay: '1',
      cc_load_policy: '1',
      cc_lang_pref: 'es',
      hl: 'es',
      controls: '0',
    });
    expect(player!.destination).toBe('iframe');
    // strict-origin-when-cross-origin: the site's origin, never the page's address.
    expect(player!.referer).toBe(`${visitor.origin}/`);
    expect(await frameActivations(visitor)).toEqual([true]);
    await visitor.waitFor(() => document.activeElement?.matches('#rsvp iframe'), undefined, {
      what: 'the player to have the focus',
    });
    expect(await box()).toBe(before);
    expect(maps.reached).toBe(false);

    await visitor.select('#studio-select', 'marbella');
    // The panel renders the chosen studio's placeholder anew: a click before that is lost with the old one.
    await visitor.waitFor(
      () => document.querySelector('.map-panel__address')?.textContent?.includes('Marbella'),
      undefined,
      {
        what: 'the map panel to show Marbella',
      },
    );
    await visitor.click('.map-panel .embed-placeholder__load');
    await waitForRequest(maps, '/maps', 'Marbella');
    // Another studio's map follows without asking again (the keyboard passes Vienna on the way).
    await visitor.select('#studio-select', 'zurich');
    await visitor.waitFor(
      () => document.querySelector('.map-panel__address')?.textContent?.includes('Dübendorf'),
      undefined,
      { what: 'the map panel to show Zürich' },
    );
    await waitForRequest(maps, '/maps', 'Dübendorf');
    expect(await visitor.attribute('.map-panel a.map-panel__link', 'href')).toMatch(
      /^https:\/\/www\.google\.com\/maps\//,
    );
    expect(await visitor.evaluate(() => localStorage.getItem('alwaysLoadEmbeds'))).toBeNull();
    // "Always load" stays under the loaded map, and ticking it still keeps the choice.
    await visitor.click('.map-panel .embed-choice__always input');
    await visitor.waitFor(() => localStorage.getItem('alwaysLoadEmbeds') === '["Google Maps"]', undefined, {
      what: 'the choice to always load Google Maps to be kept',
    });
    expect(await visitor.count('.map-panel iframe')).toBe(1);
    // The player follows a change of language with captions and its interface in the new one.
    // (The frame loads lazily: it is brought back into view, as the visitor scrolls up to it.)
    await switchLanguage(visitor, 'en');
    await visitor.evaluate(() => document.querySelector('#rsvp iframe')!.scrollIntoView());
    await waitForRequest(video, '/embed/', 'hl=en');
    // Each studio's map, and the player in each language, is a frame of its own: navigating one
    // frame from address to address would leave an entry per address in the visitor's history, for
    // the back button to walk through.
    expect(await visitor.evaluate(() => history.length)).toBe(historyLength);
  });
});

describe('“always load”', () => {
  it('loads both on the next visit, without a click and without starting, until withdrawn on the privacy page', async () => {
    resetProviders();
    const visitor = await browsers.visitor(servers.before.url, { language: 'en' });
    await visitor.goto('/');
    await waitForHydration(visitor);
    await visitor.click('#rsvp .embed-choice__always input');
    await visitor.click('#rsvp .embed-placeholder__load');
    // The player takes the focus, which scrolls it into view: the next click waits for that.
    await waitForRequest(video, '/embed/');
    await waitForFocusScrolledTo(visitor, '#rsvp iframe');
    await visitor.click('.map-panel .embed-choice__always input');
    await visitor.click('.map-panel .embed-placeholder__load');
    await waitForRequest(maps, '/maps');
    expect(JSON.parse((await visitor.evaluate(() => localStorage.getItem('alwaysLoadEmbeds')))!)).toEqual([
      'YouTube',
      'Google Maps',
    ]);

    // The next visit.
    resetProviders();
    await visitor.goto('/');
    await waitForHydration(visitor);
    await readToTheEnd(visitor);
    await waitForRequest(video, '/embed/');
    await waitForRequest(maps, '/maps');
    expect(new URL(video.requests[0]!.path, video.origin).searchParams.get('autoplay')).toBeNull();

    await visitor.goto('/impressum');
    await waitForHydration(visitor);
    await visitor.click('.legal__withdraw button');
    await visitor.waitFor(() => document.querySelector('.legal__withdraw [role="status"]')?.textContent);
    expect(await visitor.evaluate(() => localStorage.getItem('alwaysLoadEmbeds'))).toBeNull();

    resetProviders();
    await visitor.goto('/');
    await waitForHydration(visitor);
    await readToTheEnd(visitor);
    await pause(1000);
    expect(video.reached || maps.reached).toBe(false);
    expect(await visitor.count('#rsvp .embed-placeholder__load')).toBe(1);
  });
});

describe('on a 390×844 phone', () => {
  it.each(LANGUAGES)(
    'in %s, the 16:9 box holds the picture and the button whole, and nothing moves when the player loads',
    async (lng) => {
      resetProviders();
      const visitor = await browsers.visitor(servers.before.url, {
        language: lng,
        viewport: { width: 390, height: 844 },
      });
      await visitor.goto('/');
      await waitForHydration(visitor);
      const layout = () =>
        visitor.evaluate(() => {
          const box = document.querySelector('#rsvp .video-frame')!.getBoundingClientRect();
          const line = document.querySelector('#rsvp .embed-choice')!.getBoundingClientRect();
          // The next section's heading: its own content is laid out only as it comes near the viewport.
          const next = document
            .querySelector('#rsvp')!
            .nextElementSibling!.querySelector('h2')!
            .getBoundingClientRect();
          const button = document.querySelector('#rsvp .embed-placeholder__load')?.getBoundingClientRect();
          const inside =
            button &&
            button.top >= box.top &&
            button.bottom <= box.bottom &&
            button.left >= box.left &&
            button.right <= box.right;
          const scrollers = [...document.querySelectorAll('#rsvp .video-frame *')].filter(
            (el) => el.scrollHeight > el.clientHeight + 1 && getComputedStyle(el).overflowY !== 'visible',
          );
          return {
            ratio: Math.round((box.width / box.height) * 100) / 100,
            buttonInside: inside ?? null,
            scrollers: scrollers.length,
            sizes: [box.height, line.height, line.top - box.bottom, next.top - line.bottom].map(Math.round),
          };
        });
      const before = await layout();
      expect(before).toMatchObject({ ratio: 1.78, buttonInside: true, scrollers: 0 });
      await visitor.click('#rsvp .embed-placeholder__load');
      await waitForRequest(video, '/embed/');
      await visitor.waitFor(() => document.activeElement?.matches('#rsvp iframe'));
      const after = await layout();
      expect(after.sizes).toEqual(before.sizes);
    },
  );
});
