// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventClock, HOUR_MS, MINUTE_MS } from '../../shared/event-clock.ts';
import { type Language } from '../../shared/languages.ts';
import { localeOf } from '../helpers/languages.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';
import { click, dictionary, renderApp } from '../helpers/render-client.tsx';
import { onEventWallClock, visitorTimeRange } from '../../client/visitor-time.ts';

const START = Date.UTC(2027, 2, 18, 17, 0);
const END = START + 2 * MINUTE_MS;
const RECORDING = 'https://video.example.com/replay';
const content = editedContent((file) => moveEvent(file, eventFieldsAt(START, 2), { recordingUrl: RECORDING }));
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const phase = () => document.querySelector('.hero')!.getAttribute('data-event-phase');
const countdown = () => document.querySelector('[data-testid="countdown"]')?.textContent;
const status = () => document.querySelector('[role="status"]')!;
const streamIntro = () => document.querySelector('[data-testid="stream-intro"]')!.textContent;
const playLabel = () => document.querySelector('#rsvp .embed-placeholder__load')!.textContent;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an open page across the start and the end', () => {
  it('counts down every second, turns live at the start and ends at the end, without a reload', async () => {
    vi.setSystemTime(START - 3000);
    const { root } = renderApp({ language: 'en', content });
    await advance(0);
    expect(phase()).toBe('before');
    expect(countdown()).toBe('Starts in 3 s');
    expect(streamIntro()).toBe(dictionary('en').video.intro);

    // The live region: its text may change when a phase begins, never on a tick.
    const announced: string[] = [];
    const observer = new MutationObserver(() => announced.push(status().textContent!));
    observer.observe(status(), { childList: true, subtree: true, characterData: true });

    await advance(999);
    expect(countdown()).toBe('Starts in 3 s');
    await advance(1);
    expect(countdown()).toBe('Starts in 2 s');
    await advance(1000);
    expect(countdown()).toBe('Starts in 1 s');
    await advance(999);
    expect(phase()).toBe('before');
    await advance(1);
    expect(phase()).toBe('live');
    expect(countdown()).toBeUndefined();
    expect(status().textContent).toBe('Live now');
    expect(document.querySelector('.hero__stream')!.textContent).toBe('Watch live now');
    expect(streamIntro()).toBe(dictionary('en').video.introLive);
    expect(playLabel()).toBe('Play the live stream – live now – loads YouTube');

    await advance(2 * MINUTE_MS - 1);
    expect(phase()).toBe('live');
    await advance(1);
    expect(phase()).toBe('after');
    expect(status().textContent).toBe(dictionary('en').hero.ended);
    expect(document.querySelector('a[href^="/event.ics"]')).toBeNull();
    expect(document.querySelector('a.hero__recording')!.getAttribute('href')).toBe(RECORDING);
    expect(document.querySelector('.hero__stream')).toBeNull();
    expect(streamIntro()).toBe(dictionary('en').video.introAfter);
    expect(document.querySelector('#rsvp .embed-placeholder__load')).toBeNull();
    expect(document.querySelector('#rsvp .embed-placeholder__closed')!.textContent).toBe(dictionary('en').hero.ended);

    await advance(HOUR_MS);
    expect(new Set(announced)).toEqual(new Set(['Live now', dictionary('en').hero.ended]));
    observer.disconnect();
    act(() => root.unmount());
  });

  it('starts from the clock the server rendered, then takes the visitor clock', async () => {
    vi.setSystemTime(START + 30_000);
    const rendered = eventClock(START - 5 * MINUTE_MS, { start: START, end: END });
    const { root } = renderApp({ language: 'de', content, clock: rendered });
    // The layout effect has already read the visitor clock: live, although rendered before.
    expect(phase()).toBe('live');
    expect(status().textContent).toBe('Jetzt live');
    act(() => root.unmount());
  });

  it('catches up at once when a hidden tab shows again', async () => {
    vi.setSystemTime(START - 10 * MINUTE_MS);
    const { root } = renderApp({ language: 'es', content });
    expect(countdown()).toBe('Empieza en 10 min');
    // A sleeping computer: the clock jumps on, no timer has fired.
    vi.setSystemTime(END + MINUTE_MS);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(phase()).toBe('after');
    act(() => root.unmount());
  });

  it("follows a rehearsal's shifted event clock: the visitor's clock moved by the page's shift", async () => {
    // The real clock months before the event; the rehearsal's event clock 3 s before its start.
    const real = Date.UTC(2026, 10, 26, 12, 0);
    vi.setSystemTime(real);
    const rehearsal = { shiftMs: START - 3000 - real, clockAtStart: '2027-03-18 11:59', timeZone: 'Etc/GMT+5' };
    const rendered = eventClock(START - 3000, { start: START, end: END }, MINUTE_MS);
    const { root } = renderApp({ language: 'en', content, clock: rendered, rehearsal });
    await advance(0);
    expect(phase()).toBe('before');
    expect(countdown()).toBe('Starts in 3 s');
    expect(document.querySelector('[data-testid="rehearsal"] strong')!.textContent).toBe(
      dictionary('en').rehearsal.label,
    );
    await advance(3000);
    expect(phase()).toBe('live');
    await advance(2 * MINUTE_MS);
    expect(phase()).toBe('after');
    act(() => root.unmount());
  });
});

describe("the event's times on the visitor's clock", () => {
  const times = { start: START, end: START + 3.5 * HOUR_MS };
  it('are left out where the visitor keeps the event zone or one with the same clock', () => {
    expect(visitorTimeRange(times, 'Europe/Vienna', 'Europe/Vienna', 'de-AT')).toBeNull();
    expect(visitorTimeRange(times, 'Europe/Vienna', 'Europe/Berlin', 'de-AT')).toBeNull();
  });

  it('give the hours where only they differ, and the day as well where it differs', () => {
    expect(visitorTimeRange(times, 'Europe/Vienna', 'Europe/London', 'en-GB')).toBe('17:00–20:30');
    expect(visitorTimeRange(times, 'Europe/Vienna', 'Asia/Tokyo', 'en-GB')).toBe('Fri 19 Mar, 02:00–05:30');
    expect(visitorTimeRange(times, 'Europe/Vienna', 'America/Los_Angeles', 'es-ES')).toBe('10:00–13:30');
    // Starting on the event's day and ending on the next: both days, never the bare numbers
    // ICU writes for a range it cannot give in hours alone.
    expect(visitorTimeRange(times, 'Europe/Vienna', 'Asia/Dubai', 'en-GB')?.replace(/\s/g, ' ')).toBe(
      'Thu 18 Mar, 21:00 – Fri 19 Mar, 00:30',
    );
  });

  describe("are told apart from the event zone's by UTC offsets alone", () => {
    const event = {
      ...times,
      timeZone: 'Europe/Vienna',
      status: 'EventScheduled',
      utcOffsetMinutes: { start: 60, end: 120 },
      recordingUrl: null,
      programme: [],
    } as const;
    const offsetsWest = (atStart: number, atEnd: number) =>
      vi.spyOn(Date.prototype, 'getTimezoneOffset').mockImplementation(function (this: Date) {
        return this.getTime() === times.start ? atStart : atEnd;
      });
    afterEach(() => vi.restoreAllMocks());

    it('the same offsets at the start and the end: the same clock, and no Intl formatter is made', () => {
      offsetsWest(-60, -120);
      const formatter = vi.spyOn(Intl, 'DateTimeFormat');
      expect(onEventWallClock(event)).toBe(true);
      expect(formatter).not.toHaveBeenCalled();
    });

    it('another offset at either: another clock', () => {
      offsetsWest(-60, -60);
      expect(onEventWallClock(event)).toBe(false);
      offsetsWest(0, -120);
      expect(onEventWallClock(event)).toBe(false);
    });
  });

  describe('on the page', () => {
    // A visitor whose clock is another than the event zone's (UTC+14), whatever zone the tests run in.
    beforeEach(() => {
      vi.setSystemTime(START - 3 * HOUR_MS);
      vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-14 * 60);
    });
    afterEach(() => vi.restoreAllMocks());
    const visitorTime = () => document.querySelector('[data-testid="visitor-time"]')?.textContent;
    const expected = (language: Language) =>
      dictionary(language).hero.yourTime.replace(
        '{{time}}',
        visitorTimeRange(
          content.public.event,
          content.public.event.timeZone,
          Intl.DateTimeFormat().resolvedOptions().timeZone,
          localeOf(language),
        )!,
      );

    it('join in a task of their own once the main thread is idle, not in the first render', async () => {
      renderApp({ language: 'en', content });
      expect(visitorTime()).toBeUndefined();
      await advance(1000);
      expect(visitorTime()).toBe(expected('en'));
    });

    it('wait for the language choice on a first visit, while the page under the overlay is not shown', async () => {
      // The overlay of a first visit is German.
      renderApp({ language: 'de', content, chosen: false });
      await advance(5000);
      expect(visitorTime()).toBeUndefined();
      click(document.querySelector('.overlay a[hreflang="de"]'));
      await advance(1000);
      expect(document.querySelector('.overlay')).toBeNull();
      await advance(1000);
      expect(visitorTime()).toBe(expected('de'));
    });
  });
});
