import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '../../server/config/paths.ts';
import {
  clockStep,
  countdownText,
  DAY_MS,
  eventClock,
  eventClockWithStatus,
  eventPhase,
  HOUR_MS,
  MINUTE_MS,
  SECOND_MS,
} from '../../shared/event-clock.ts';
import { I18N_OPTIONS, NAMESPACE } from '../../shared/i18n-options.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';

const start = Date.UTC(2027, 2, 18, 17, 0);
const end = Date.UTC(2027, 2, 18, 20, 30);
const times = { start, end };

function translator(language: Language) {
  const i18n = i18next.createInstance();
  const dictionary = JSON.parse(readFileSync(path.join(LOCALES_DIR, language, 'translation.json'), 'utf8')) as object;
  void i18n.init({ ...I18N_OPTIONS, lng: language, resources: { [language]: { [NAMESPACE]: dictionary } } });
  return (key: string, options: Record<string, unknown>) => i18n.t(key, options);
}
const text = (language: Language, now: number) =>
  countdownText(translator(language), eventClock(now, times).countdown!);

describe('the event phase', () => {
  it.each([
    [start - DAY_MS, 'before'],
    [start - 1, 'before'],
    [start, 'live'],
    [end - 1, 'live'],
    [end, 'after'],
    [end + 365 * DAY_MS, 'after'],
  ] as const)('at %i is %s', (now, phase) => {
    expect(eventPhase(now, times)).toBe(phase);
    expect(eventClock(now, times).phase).toBe(phase);
  });

  it('counts down only before the start, and says when the phase changes', () => {
    expect(eventClock(start - 1, times)).toMatchObject({ countdown: { unit: 'seconds', minutes: 0, seconds: 1 } });
    expect(eventClock(start - 1, times).changesAt).toBe(start);
    expect(eventClock(start, times)).toEqual({ phase: 'live', countdown: null, changesAt: end });
    expect(eventClock(end - 1, times)).toEqual({ phase: 'live', countdown: null, changesAt: end });
    expect(eventClock(end, times)).toEqual({ phase: 'after', countdown: null, changesAt: null });
  });
});

describe('the segment on air', () => {
  // A programme with a gap at the start, and a last segment the end cuts off.
  const programme = [start + 10 * MINUTE_MS, start + 60 * MINUTE_MS, end - MINUTE_MS, end + 5 * MINUTE_MS].map(
    (at) => ({ start: at }),
  );
  const day = { start, end, programme };

  it.each([
    [start - 1, undefined, start],
    [start, undefined, programme[0]!.start],
    [programme[0]!.start - 1, undefined, programme[0]!.start],
    [programme[0]!.start, 0, programme[1]!.start],
    [programme[1]!.start, 1, programme[2]!.start],
    [programme[2]!.start, 2, end],
    [end - 1, 2, end],
    [end, undefined, null],
  ] as const)('at %i is %s, and the clock changes next at %s', (now, segment, changesAt) => {
    const clock = eventClock(now, day);
    expect(clock.segment).toBe(segment);
    expect(clock.changesAt).toBe(changesAt);
  });

  it('names each segment a step of its own for the pages kept', () => {
    const names = new Set<string>();
    for (let now = start; now < end; now += 30 * SECOND_MS) names.add(clockStep(eventClock(now, day)));
    // Before the first segment, then the three that take place.
    expect(names.size).toBe(4);
  });

  it('is no segment while the event is called off', () => {
    const postponed = { ...day, status: 'EventPostponed' } as const;
    expect(eventClockWithStatus(programme[1]!.start, postponed)).toEqual({
      phase: 'postponed',
      countdown: null,
      changesAt: null,
    });
  });
});

describe('the countdown', () => {
  it.each([
    // time left, shown as, changes when the time left reaches
    [3 * DAY_MS + 5 * HOUR_MS, { unit: 'days', days: 3 }, 3 * DAY_MS],
    [2 * DAY_MS, { unit: 'days', days: 1 }, DAY_MS],
    [DAY_MS + 1, { unit: 'days', days: 1 }, DAY_MS],
    [DAY_MS, { unit: 'minutes', hours: 24, minutes: 0 }, DAY_MS - MINUTE_MS],
    [2 * HOUR_MS + 14 * MINUTE_MS + 1, { unit: 'minutes', hours: 2, minutes: 15 }, 2 * HOUR_MS + 14 * MINUTE_MS],
    [HOUR_MS + 1, { unit: 'minutes', hours: 1, minutes: 1 }, HOUR_MS],
    [HOUR_MS, { unit: 'seconds', minutes: 60, seconds: 0 }, HOUR_MS - SECOND_MS],
    [12 * MINUTE_MS + 4500, { unit: 'seconds', minutes: 12, seconds: 5 }, 12 * MINUTE_MS + 4 * SECOND_MS],
    [45 * SECOND_MS, { unit: 'seconds', minutes: 0, seconds: 45 }, 44 * SECOND_MS],
    [1, { unit: 'seconds', minutes: 0, seconds: 1 }, 0],
  ])('with %i ms left reads %j until %i ms are left', (left, countdown, leftAtChange) => {
    const clock = eventClock(start - left, times);
    expect(clock.countdown).toEqual(countdown);
    expect(clock.changesAt).toBe(start - leftAtChange);
    // The same text up to the last millisecond of the step, another one at its end.
    expect(eventClock(clock.changesAt! - 1, times).countdown).toEqual(countdown);
    expect(eventClock(clock.changesAt!, times).countdown).not.toEqual(countdown);
  });

  it('changes exactly at each step over the last two days, never showing a wrong count', () => {
    let now = start - 2 * DAY_MS;
    let steps = 0;
    while (now < start) {
      const clock = eventClock(now, times);
      const left = start - now;
      const shown = clock.countdown!;
      const shownMs =
        shown.unit === 'days'
          ? shown.days * DAY_MS
          : shown.unit === 'minutes'
            ? shown.hours * HOUR_MS + shown.minutes * MINUTE_MS
            : shown.minutes * MINUTE_MS + shown.seconds * SECOND_MS;
      const granularity = shown.unit === 'days' ? DAY_MS : shown.unit === 'minutes' ? MINUTE_MS : SECOND_MS;
      expect(Math.abs(shownMs - left)).toBeLessThanOrEqual(granularity);
      expect(clock.changesAt!).toBeGreaterThan(now);
      now = clock.changesAt!;
      steps++;
    }
    // "1 day"; "24 h" to "1 h 1 min" a minute each; "60 min" to "1 s" a second each.
    expect(steps).toBe(1 + (1440 - 60) + 3600);
    expect(now).toBe(start);
  });

  it("counts the server's last hour in minutes", () => {
    expect(eventClock(start - HOUR_MS, times, MINUTE_MS)).toEqual({
      phase: 'before',
      countdown: { unit: 'minutes', hours: 1, minutes: 0 },
      changesAt: start - 59 * MINUTE_MS,
    });
    expect(eventClock(start - 45 * SECOND_MS, times, MINUTE_MS)).toEqual({
      phase: 'before',
      countdown: { unit: 'minutes', hours: 0, minutes: 1 },
      changesAt: start,
    });
    expect(countdownText(translator('en'), eventClock(start - 45 * SECOND_MS, times, MINUTE_MS).countdown!)).toBe(
      'Starts in 1 min',
    );
  });

  it('gives every step a name of its own, and the same name within a step', () => {
    const names = new Set<string>();
    for (let now = start - 3 * MINUTE_MS; now <= end + MINUTE_MS; now += SECOND_MS / 4) {
      names.add(clockStep(eventClock(now, times)));
    }
    // 180 seconds, the broadcast, the end.
    expect(names.size).toBe(180 + 1 + 1);
  });
});

describe('the countdown in words', () => {
  it.each([
    [3 * DAY_MS + HOUR_MS, { de: 'Beginnt in 3 Tagen', en: 'Starts in 3 days', es: 'Empieza en 3 días' }],
    [DAY_MS + HOUR_MS, { de: 'Beginnt in 1 Tag', en: 'Starts in 1 day', es: 'Empieza en 1 día' }],
    [
      2 * HOUR_MS + 15 * MINUTE_MS,
      { de: 'Beginnt in 2 Std. 15 Min.', en: 'Starts in 2 h 15 min', es: 'Empieza en 2 h 15 min' },
    ],
    [3 * HOUR_MS, { de: 'Beginnt in 3 Std.', en: 'Starts in 3 h', es: 'Empieza en 3 h' }],
    [
      12 * MINUTE_MS + 5 * SECOND_MS,
      { de: 'Beginnt in 12 Min. 5 Sek.', en: 'Starts in 12 min 5 s', es: 'Empieza en 12 min 5 s' },
    ],
    [10 * MINUTE_MS, { de: 'Beginnt in 10 Min.', en: 'Starts in 10 min', es: 'Empieza en 10 min' }],
    [45 * SECOND_MS, { de: 'Beginnt in 45 Sek.', en: 'Starts in 45 s', es: 'Empieza en 45 s' }],
    [1, { de: 'Beginnt in 1 Sek.', en: 'Starts in 1 s', es: 'Empieza en 1 s' }],
  ])('with %i ms left', (left, expected) => {
    for (const language of LANGUAGES) expect(text(language, start - left), language).toBe(expected[language]);
  });
});

describe('the clock of an event with a status', () => {
  const times = { start: Date.UTC(2027, 2, 18, 17), end: Date.UTC(2027, 2, 18, 18, 30) };
  const moments = [times.start - DAY_MS, times.start - SECOND_MS, times.start, times.end - 1, times.end + DAY_MS];

  it.each([
    ['EventCancelled', 'cancelled'],
    ['EventPostponed', 'postponed'],
  ] as const)('stands still for %s: no countdown, never live, never a change', (status, phase) => {
    for (const now of moments)
      expect(eventClockWithStatus(now, { ...times, status })).toEqual({ phase, countdown: null, changesAt: null });
  });

  it.each(['EventScheduled', 'EventRescheduled', 'EventMovedOnline'] as const)('runs on the times for %s', (status) => {
    for (const now of moments) expect(eventClockWithStatus(now, { ...times, status })).toEqual(eventClock(now, times));
  });
});
