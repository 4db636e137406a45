import request from 'supertest';
import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import { jsonLdOf, parseHtml } from '../helpers/html.ts';
import { readSingleEvent } from '../helpers/icalendar.ts';
import { changeableLive } from '../helpers/live.ts';
import { dictionary } from '../helpers/render-client.tsx';

/**
 * Every page shows the live notice at the top in its language (else the default language's),
 * as text, in the server's HTML; the live status is stated in the hero and the JSON-LD; and no
 * page rendered with an earlier live state is served once it has changed.
 */
const NOTICE = {
  level: 'warning' as const,
  text: { de: 'Beginn um 18:15 <script>alert(1)</script>', en: 'Start at 18:15 & later' },
};
const PATHS = ['/', '/impressum', '/no-such-page'];

const page = async (app: RequestListener, path: string, lng: string) => {
  const res = await request(app).get(path).set('Cookie', `selectedLanguage=${lng}`);
  expect(res.status).toBe(path === '/no-such-page' ? 404 : 200);
  return { html: res.text, doc: parseHtml(res.text) };
};

describe('the live notice', () => {
  it.each(PATHS)('is at the top of %s in the page’s language, as text, before any script runs', async (path) => {
    const { app } = await testApp({ liveSource: changeableLive({ notice: NOTICE, status: null, schedule: null }) });
    for (const [lng, text] of [
      ['de', NOTICE.text.de],
      ['en', NOTICE.text.en],
    ] as const) {
      const { doc, html } = await page(app, path, lng);
      const shown = doc.querySelector('[data-testid="live-notice"]')!;
      expect(shown.textContent).toBe(`${dictionary(lng).liveNotice.warning} ${text}`);
      expect(shown.className).toBe('live-notice live-notice--warning');
      expect(shown.querySelector('[lang]')).toBeNull();
      // First in the page, above the language bar; the polite region, for a notice that comes
      // later, last in the page and empty.
      const slot = doc.querySelector('.page > .live-notice-slot')!;
      expect(slot.contains(shown)).toBe(true);
      expect(slot.nextElementSibling!.className).toBe('language-menu');
      const region = doc.querySelector('.page > .live-notice-bar > .live-notice-region')!;
      expect(region.getAttribute('aria-live')).toBe('polite');
      expect(region.nextElementSibling).toBeNull();
      expect(region.textContent).toBe('');
      // Escaped: the notice's markup is its text, nowhere an element.
      expect(doc.querySelectorAll('script:not([type])')).toHaveLength(1);
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(bootstrapOf(html).app.live.notice).toEqual(NOTICE);
    }
  });

  it('shows the default language’s text, marked as written in it, where the notice has none', async () => {
    const { app } = await testApp({ liveSource: changeableLive({ notice: NOTICE, status: null, schedule: null }) });
    const { doc } = await page(app, '/', 'es');
    const shown = doc.querySelector('[data-testid="live-notice"]')!;
    expect(shown.querySelector('strong')!.textContent).toBe(dictionary('es').liveNotice.warning);
    const text = shown.querySelector('span[lang]')!;
    expect(text.getAttribute('lang')).toBe('de');
    expect(text.getAttribute('dir')).toBe('ltr');
    expect(text.textContent).toBe(NOTICE.text.de);
  });

  it('is absent without a notice, a polite region at the end of the page kept for one that comes', async () => {
    const { app } = await testApp({ liveSource: changeableLive() });
    const { doc } = await page(app, '/', 'en');
    expect(doc.querySelector('[data-testid="live-notice"]')).toBeNull();
    expect(doc.querySelector('.live-notice-slot')).toBeNull();
    const region = doc.querySelector('.page > .live-notice-bar > .live-notice-region')!;
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
  });

  it('is never served from a page rendered with an earlier live state: each change is a new page', async () => {
    const live = changeableLive();
    const { app } = await testApp({ liveSource: live });
    for (const path of PATHS)
      expect((await page(app, path, 'en')).doc.querySelector('[data-testid="live-notice"]')).toBeNull();
    const before = await request(app).get('/').set('Cookie', 'selectedLanguage=en');
    live.set({ notice: { level: 'info', text: { de: 'Eins', en: 'One' } }, status: null, schedule: null });
    for (const path of PATHS)
      expect((await page(app, path, 'en')).doc.querySelector('[data-testid="live-notice"]')!.textContent).toBe(
        'Notice: One',
      );
    const after = await request(app)
      .get('/')
      .set('Cookie', 'selectedLanguage=en')
      .set('If-None-Match', before.headers.etag!);
    expect(after.status).toBe(200);
    live.set({ notice: null, status: null, schedule: null });
    for (const path of PATHS)
      expect((await page(app, path, 'en')).doc.querySelector('[data-testid="live-notice"]')).toBeNull();
  });
});

describe('what the page carries to follow the live state', () => {
  it('is the state it was rendered with, dated, and how often to ask for the next (LIVE_POLL_SECONDS)', async () => {
    const live = changeableLive({ notice: NOTICE, status: null, schedule: null });
    const { app } = await testApp({ liveSource: live }, { NODE_ENV: 'test', LIVE_POLL_SECONDS: '7' });
    const { html } = await page(app, '/', 'en');
    expect(bootstrapOf(html).app.live).toEqual(await live.get());
    expect(bootstrapOf(html).app.live.updated).toBe('2027-03-18T08:00:00.000Z');
    expect(bootstrapOf(html).livePollSeconds).toBe(7);
    const byDefault = await testApp({ liveSource: live });
    expect(bootstrapOf((await page(byDefault.app, '/impressum', 'en')).html).livePollSeconds).toBe(30);
  });
});

describe('the live status', () => {
  const START = Date.UTC(2027, 2, 18, 17, 0);

  async function appWith(status: 'EventPostponed' | 'EventCancelled' | 'EventMovedOnline' | null) {
    const content = editedContent((file) => moveEvent(file, eventFieldsAt(START, 90), { status: 'EventScheduled' }));
    const live = changeableLive({ notice: NOTICE, status, schedule: null });
    const { app } = await testApp({ content, liveSource: live, now: () => START - 30 * MINUTE_MS });
    return { app, live };
  }

  it('takes the content file’s place in the hero, the page’s data and the JSON-LD, with the notice’s text', async () => {
    const { app, live } = await appWith('EventPostponed');
    const { doc, html } = await page(app, '/', 'en');
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('postponed');
    expect(doc.querySelector('.hero__status')!.textContent).toBe(dictionary('en').hero.postponed);
    expect(doc.querySelector('[data-testid="countdown"]')).toBeNull();
    expect(bootstrapOf(html).app.clock).toEqual({ phase: 'postponed', countdown: null, changesAt: null });
    const jsonLd = jsonLdOf(html);
    expect(jsonLd.eventStatus).toBe('https://schema.org/EventPostponed');
    expect(jsonLd.description).toMatch(/^Start at 18:15 & later \S/);

    live.set({ notice: NOTICE, status: null, schedule: null });
    const back = await page(app, '/', 'en');
    expect(back.doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
    expect(jsonLdOf(back.html).eventStatus).toBe('https://schema.org/EventScheduled');
  });

  it('takes its place in the calendar file, which follows each change', async () => {
    const { app, live } = await appWith('EventCancelled');
    const calendar = async () =>
      readSingleEvent(Buffer.from((await request(app).get('/event.ics?lng=es').expect(200)).text)).event;
    const cancelled = await calendar();
    expect(cancelled.STATUS).toBe('CANCELLED');
    live.set({ notice: NOTICE, status: 'EventPostponed', schedule: null });
    const postponed = await calendar();
    expect(postponed.STATUS).toBe('TENTATIVE');
    // Each revision stamped later than the one before, so that calendar apps take it.
    expect(postponed.DTSTAMP! > cancelled.DTSTAMP!).toBe(true);
    expect(postponed['LAST-MODIFIED']).toBe(postponed.DTSTAMP);
    live.set({ notice: null, status: null, schedule: null });
    const back = await calendar();
    expect(back.STATUS).toBe('CONFIRMED');
    expect(back.DTSTAMP! > postponed.DTSTAMP!).toBe(true);
  });

  it('states a move online in the JSON-LD, the notice saying it on the page', async () => {
    const { app } = await appWith('EventMovedOnline');
    const { doc, html } = await page(app, '/', 'de');
    expect(jsonLdOf(html).eventStatus).toBe('https://schema.org/EventMovedOnline');
    expect(jsonLdOf(html).description.startsWith(NOTICE.text.de)).toBe(true);
    expect(doc.querySelector('[data-testid="live-notice"]')!.textContent).toContain(NOTICE.text.de);
  });
});
