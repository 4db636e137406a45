import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config/environment.ts';
import { rehearsalClock } from '../../server/content/rehearsal-clock.ts';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import type { Language } from '../../shared/languages.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import { parseHtml, metaContent } from '../helpers/html.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { dictionary } from '../helpers/render-client.tsx';
import type * as ImpressumModule from '../../client/pages/Impressum.tsx';

const broken = vi.hoisted(() => ({ impressum: false }));
vi.mock('../../client/pages/Impressum.tsx', async (importOriginal) => {
  const real = await importOriginal<typeof ImpressumModule>();
  return {
    ...real,
    Impressum: () => {
      if (broken.impressum) throw new Error('The legal notice broke');
      return real.Impressum();
    },
  };
});

const START = Date.UTC(2027, 2, 18, 17, 0);
const fields = eventFieldsAt(START, 90);
const content = editedContent((file) => moveEvent(file, fields));
/** The real clock: months before the event. */
const REAL = Date.UTC(2026, 10, 26, 12, 0, 0);
/** The rehearsal's event clock at start: two minutes before the event, on the event's wall clock. */
const wallTwoMinutesBefore = new Date(Date.parse(`${fields.date}T${fields.startTime}Z`) - 2 * MINUTE_MS)
  .toISOString()
  .slice(0, 16);
const rehearsal = rehearsalClock(
  loadConfig({ REHEARSAL_CLOCK: wallTwoMinutesBefore }).rehearsalClock!,
  fields.timeZone,
  REAL,
);

/** The app on a real clock the test moves, in a rehearsal or not. */
async function appAt(options: { rehearsal: boolean }) {
  const clock = { now: REAL };
  const { app } = await testApp({
    content,
    now: () => clock.now,
    ...(options.rehearsal ? { rehearsal } : {}),
  });
  return { app, clock };
}

const get = (app: Parameters<typeof request>[0], path: string, lng: Language = 'en') =>
  request(app).get(path).set('Cookie', `selectedLanguage=${lng}`);

describe('a rehearsal', () => {
  it('starts the event clock at REHEARSAL_CLOCK on the event wall clock', () => {
    expect(rehearsal).toEqual({
      shiftMs: START - 2 * MINUTE_MS - REAL,
      clockAtStart: wallTwoMinutesBefore.replace('T', ' '),
      timeZone: fields.timeZone,
    });
  });

  it("renders the landing page's phase on the shifted clock, and turns live as the real clock passes the shifted start", async () => {
    const { app, clock } = await appAt({ rehearsal: true });
    let doc = parseHtml((await get(app, '/').expect(200)).text);
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
    expect(doc.querySelector('[data-testid="countdown"]')!.textContent).toBe('Starts in 2 min');

    clock.now = REAL + 2 * MINUTE_MS;
    doc = parseHtml((await get(app, '/').expect(200)).text);
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('live');
    expect(doc.querySelector('.hero__live')!.textContent).toBe(dictionary('en').hero.live);

    clock.now = REAL + 92 * MINUTE_MS;
    doc = parseHtml((await get(app, '/').expect(200)).text);
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('after');
  });

  it('on the real clock, the same moment is months before the event', async () => {
    const { app } = await appAt({ rehearsal: false });
    const doc = parseHtml((await get(app, '/').expect(200)).text);
    expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
    expect(doc.querySelector('[data-testid="countdown"]')!.textContent).toMatch(/^Starts in \d+ days$/);
  });

  it("offers a page to the edge no longer than until the shifted clock's next step", async () => {
    const { app, clock } = await appAt({ rehearsal: true });
    // On the event clock, 62 s before the start: the page's minute ("Starts in 2 min") ends in 2 s.
    clock.now = REAL + 58_000;
    const res = await get(app, '/').expect(200);
    expect(res.headers['x-accel-expires']).toBe('2');
    expect(res.headers['cdn-cache-control']).toBe('max-age=2');
    // The edge counts that lifetime from the Date, which stays on the real clock.
    expect(res.headers.date).toBe(new Date(REAL + 58_000).toUTCString());
  });

  it('carries the shift in the bootstrap data, for the browser to move its event clock alike', async () => {
    const { app } = await appAt({ rehearsal: true });
    expect(bootstrapOf((await get(app, '/').expect(200)).text).app.rehearsal).toEqual(rehearsal);
    expect(bootstrapOf((await get(app, '/impressum').expect(200)).text).app.rehearsal).toEqual(rehearsal);
  });

  describe.each(LANGUAGES)('in %s', (lng) => {
    const t = dictionary(lng);
    it.each([
      ['the landing page', '/', 200],
      ['the legal notice', '/impressum', 200],
      ['a 404', '/no-such-page', 404],
    ] as const)(
      'marks %s, in the HTML before any script, and keeps it from search engines',
      async (_, path, status) => {
        const { app } = await appAt({ rehearsal: true });
        const res = await get(app, path, lng).expect(status);
        const doc = parseHtml(res.text);
        const banners = doc.querySelectorAll('[data-testid="rehearsal"]');
        expect(banners).toHaveLength(1);
        const banner = banners[0]!;
        expect(banner.querySelector('strong')!.textContent).toBe(t.rehearsal.label);
        expect(banner.textContent).toBe(
          `${t.rehearsal.label} ${t.rehearsal.text.replace('{{clock}}', rehearsal.clockAtStart).replace('{{zone}}', rehearsal.timeZone)}`,
        );
        // First in the app's root: above the language bar and everything else.
        expect(doc.getElementById('root')!.firstElementChild).toBe(banner);
        expect(metaContent(doc, 'robots')).toBe('noindex');
        expect(res.headers['x-robots-tag']).toBe('noindex');
      },
    );

    it('marks the error page, in the language asked for', async () => {
      const { app } = await appAt({ rehearsal: true });
      broken.impressum = true;
      try {
        const res = await get(app, '/impressum', lng).expect(500);
        const doc = parseHtml(res.text);
        expect(doc.querySelector('.error-page')).not.toBeNull();
        expect(doc.querySelector('[data-testid="rehearsal"] strong')!.textContent).toBe(t.rehearsal.label);
        expect(doc.querySelector('[data-testid="rehearsal"]')!.textContent).toContain(rehearsal.clockAtStart);
        expect(metaContent(doc, 'robots')).toBe('noindex');
        expect(res.headers['x-robots-tag']).toBe('noindex');
      } finally {
        broken.impressum = false;
      }
    });
  });

  it('keeps every other answer from search engines too', async () => {
    const { app } = await appAt({ rehearsal: true });
    for (const path of ['/event.ics', '/api/live', '/robots.txt', '/sitemap.xml', '/favicon.svg']) {
      expect((await request(app).get(path)).headers['x-robots-tag'], path).toBe('noindex');
    }
  });

  it('leaves no mark on the pages of a server on the real clock', async () => {
    const { app } = await appAt({ rehearsal: false });
    for (const path of ['/', '/impressum']) {
      const res = await get(app, path).expect(200);
      const doc = parseHtml(res.text);
      expect(doc.querySelector('[data-testid="rehearsal"]'), path).toBeNull();
      expect(metaContent(doc, 'robots'), path).toBeUndefined();
      expect(res.headers['x-robots-tag'], path).toBeUndefined();
      expect(bootstrapOf(res.text).app.rehearsal).toBeNull();
    }
    broken.impressum = true;
    try {
      // A language not rendered yet: the English page is kept.
      const res = await get(app, '/impressum', 'de').expect(500);
      expect(parseHtml(res.text).querySelector('[data-testid="rehearsal"]')).toBeNull();
    } finally {
      broken.impressum = false;
    }
  });
});
