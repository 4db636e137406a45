import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  countdownText,
  eventClock,
  HOUR_MS,
  MINUTE_MS,
  PAGE_COUNTDOWN_STEP_MS,
  SECOND_MS,
} from '../../shared/event-clock.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { bootstrapOf, countingTranslations, sharedTranslations, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import { parseHtml } from '../helpers/html.ts';
import { dictionary } from '../helpers/render-client.tsx';

const START = Date.UTC(2027, 2, 18, 17, 0);
const RECORDING = 'https://video.example.com/horizon-live-replay';
const content = (recordingUrl?: string) =>
  editedContent((file) => moveEvent(file, eventFieldsAt(START, 90), recordingUrl ? { recordingUrl } : {}));
const END = START + 90 * MINUTE_MS;

/** The app on a clock the test sets, counting renders. */
async function appAt(time: number, options: { recordingUrl?: string } = {}) {
  const clock = { now: time };
  const translations = await countingTranslations();
  const { app } = await testApp({
    content: content(options.recordingUrl),
    now: () => clock.now,
    translations,
  });
  const atStart = translations.renders;
  return { app, clock, renders: () => translations.renders - atStart };
}

const landing = async (app: Parameters<typeof request>[0], lng: Language) => {
  const res = await request(app).get('/').set('Cookie', `selectedLanguage=${lng}`).expect(200);
  return { res, doc: parseHtml(res.text) };
};

/** What a visitor without scripts sees: text that is hidden only to keep widths steady is left out. */
function visibleText(element: Element | null): string | undefined {
  if (!element) return undefined;
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('.steady__spare').forEach((spare) => spare.remove());
  return copy.textContent!.trim();
}

describe('the server renders the phase of the moment', () => {
  describe.each(LANGUAGES)('in %s', (lng) => {
    const t = dictionary(lng);

    it('before the start: the countdown and the calendar, nothing live', async () => {
      const { app } = await appAt(START - 2 * HOUR_MS - 15 * MINUTE_MS, { recordingUrl: RECORDING });
      const { doc } = await landing(app, lng);
      expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
      expect(doc.querySelector('[data-testid="countdown"]')!.textContent).toBe(
        { de: 'Beginnt in 2 Std. 15 Min.', en: 'Starts in 2 h 15 min', es: 'Empieza en 2 h 15 min' }[lng],
      );
      expect(doc.querySelector('.hero__actions a[href^="/event.ics"]')!.textContent).toBe(t.hero.addToCalendar);
      expect(visibleText(doc.querySelector('.hero__actions a[href="#rsvp"]'))).toBe(t.hero.cta);
      expect(doc.querySelector('[role="status"]')!.textContent).toBe('');
      expect(doc.querySelector('.hero__recording')).toBeNull();
    });

    it('one millisecond before the start: a minute to go, the server counting to the minute', async () => {
      const { app } = await appAt(START - 1);
      const { doc } = await landing(app, lng);
      expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('before');
      expect(doc.querySelector('[data-testid="countdown"]')!.textContent).toBe(
        { de: 'Beginnt in 1 Min.', en: 'Starts in 1 min', es: 'Empieza en 1 min' }[lng],
      );
    });

    it.each([START, END - 1])('live at %i: "Live now", the live button to #rsvp, no countdown', async (now) => {
      const { app } = await appAt(now, { recordingUrl: RECORDING });
      const { doc } = await landing(app, lng);
      expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('live');
      expect(doc.querySelector('[role="status"] .hero__live')!.textContent).toBe(t.hero.live);
      expect(visibleText(doc.querySelector('.hero__actions a[href="#rsvp"]'))).toBe(t.hero.ctaLive);
      expect(doc.querySelector('[data-testid="countdown"]')).toBeNull();
      expect(doc.querySelector('.hero__actions a[href^="/event.ics"]')).not.toBeNull();
    });

    it('from the end: the closing word and the recording, no countdown, no calendar, nothing live', async () => {
      const { app } = await appAt(END, { recordingUrl: RECORDING });
      const { doc } = await landing(app, lng);
      expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('after');
      expect(doc.querySelector('[role="status"]')!.textContent).toBe(t.hero.ended);
      expect(doc.querySelector('.hero__live')).toBeNull();
      expect(doc.querySelector('[data-testid="countdown"]')).toBeNull();
      expect(doc.querySelector('a[href^="/event.ics"]')).toBeNull();
      const recording = doc.querySelector('a.hero__recording')!;
      expect(recording.getAttribute('href')).toBe(RECORDING);
      expect(recording.textContent).toBe(t.hero.recording);
    });

    it('after the end without a recording: no link to one', async () => {
      const { app } = await appAt(END + 7 * 24 * HOUR_MS);
      const { doc } = await landing(app, lng);
      expect(doc.querySelector('.hero')!.getAttribute('data-event-phase')).toBe('after');
      expect(doc.querySelector('.hero__recording')).toBeNull();
      expect(doc.querySelector('a[href^="/event.ics"]')).toBeNull();
    });
  });
});

describe('the page cache across the clock', () => {
  it('never serves a page of an earlier phase or segment, and renders each once', async () => {
    const { app, clock, renders } = await appAt(START - 1);
    const page = async () => (await landing(app, 'en')).doc;
    const phase = async () => (await page()).querySelector('.hero')!.getAttribute('data-event-phase');
    const onAir = async () => (await page()).querySelector('[aria-current="time"] .programme__title')?.textContent;
    const [first, second] = content().public.event.programme;

    expect(await phase()).toBe('before');
    clock.now = START;
    expect(await phase()).toBe('live');
    expect(await onAir()).toBe(dictionary('en').programme.segments.welcome.title);
    clock.now = second!.start - 1;
    expect(await phase()).toBe('live');
    expect(renders()).toBe(2);
    clock.now = second!.start;
    expect(await onAir()).toBe(dictionary('en').programme.segments.keynote.title);
    clock.now = END - 1;
    expect(await phase()).toBe('live');
    expect(renders()).toBe(4);
    clock.now = END;
    expect(await phase()).toBe('after');
    clock.now = END + 30 * 24 * HOUR_MS;
    expect(await phase()).toBe('after');
    expect(renders()).toBe(5);
    expect(first!.start).toBe(START);
  });

  it('sends a countdown that is never wrong by more than its step, rendered once per step', async () => {
    const { app, clock, renders } = await appAt(START - 61 * MINUTE_MS - 30 * SECOND_MS);
    const i18n = (await sharedTranslations()).forRequest('en');
    const en = (key: string, options: Record<string, unknown>) => i18n.t(key, options);
    const moments = [0, 500, 29_999, 30_000, 30_001, 60_000, 89_999, 90_000, 90_001, 91_000, 150_000, 150_001];
    const texts: string[] = [];
    for (const offset of moments) {
      clock.now = START - 61 * MINUTE_MS - 30 * SECOND_MS + offset;
      const { doc } = await landing(app, 'en');
      texts.push(doc.querySelector('[data-testid="countdown"]')!.textContent!);
      const exact = eventClock(clock.now, { start: START, end: END }, PAGE_COUNTDOWN_STEP_MS);
      expect(texts.at(-1)).toBe(countdownText(en, exact.countdown!));
    }
    expect(texts).toEqual([
      ...Array<string>(3).fill('Starts in 1 h 2 min'),
      ...Array<string>(4).fill('Starts in 1 h 1 min'),
      ...Array<string>(3).fill('Starts in 1 h'),
      ...Array<string>(2).fill('Starts in 59 min'),
    ]);
    // One render per text: the same text is never rendered twice.
    expect(renders()).toBe(new Set(texts).size);
  });

  it('carries the clock it rendered, so the browser starts from the same text', async () => {
    const { app } = await appAt(START - 45 * SECOND_MS);
    const { res } = await landing(app, 'de');
    expect(bootstrapOf(res.text).app.clock).toEqual(
      eventClock(START - 45 * SECOND_MS, { start: START, end: END }, PAGE_COUNTDOWN_STEP_MS),
    );
  });

  it('gives every visitor in one step the same bytes and ETag, and a new ETag in the next', async () => {
    const { app, clock } = await appAt(START - 90 * SECOND_MS);
    const first = await request(app).get('/').set('Cookie', 'selectedLanguage=de');
    clock.now += 29_999;
    const same = await request(app)
      .get('/')
      .set('Cookie', 'selectedLanguage=de')
      .set('If-None-Match', first.headers.etag!);
    expect(same.status).toBe(304);
    clock.now += 1;
    const next = await request(app)
      .get('/')
      .set('Cookie', 'selectedLanguage=de')
      .set('If-None-Match', first.headers.etag!);
    expect(next.status).toBe(200);
    expect(next.headers.etag).not.toBe(first.headers.etag);
  });

  it('does not render the other pages again when the clock steps', async () => {
    const { app, clock, renders } = await appAt(START - 10 * SECOND_MS);
    for (let i = 0; i < 5; i++) {
      await request(app).get('/impressum').set('Cookie', 'selectedLanguage=en').expect(200);
      await request(app).get('/missing').set('Cookie', 'selectedLanguage=en').expect(404);
      clock.now += SECOND_MS;
    }
    expect(renders()).toBe(2);
    expect(bootstrapOf((await request(app).get('/impressum')).text).app.clock).toBeNull();
  });
});
