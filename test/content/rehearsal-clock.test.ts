import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/environment.ts';
import { rehearsalClock } from '../../server/content/rehearsal-clock.ts';
import { zonedTimeToUtc } from '../../server/content/event-time.ts';
import { eventNow } from '../../shared/rehearsal.ts';

/** When the server started: on a whole second, where the clock reads REHEARSAL_CLOCK exactly. */
const STARTED = Date.UTC(2026, 10, 26, 22, 15, 30);
const setting = (given: string) => loadConfig({ REHEARSAL_CLOCK: given }).rehearsalClock!;

describe('the rehearsal clock', () => {
  it("reads REHEARSAL_CLOCK at start on the event's wall clock, and runs on at the real clock's pace", () => {
    const rehearsal = rehearsalClock(setting('2027-03-18T17:55'), 'Europe/Vienna', STARTED);
    // 17:55 in Vienna in March (CET, UTC+1) is 16:55 UTC.
    expect(eventNow(rehearsal.shiftMs, STARTED)).toBe(Date.UTC(2027, 2, 18, 16, 55));
    expect(eventNow(rehearsal.shiftMs, STARTED + 90_000)).toBe(Date.UTC(2027, 2, 18, 16, 56, 30));
    expect(rehearsal).toMatchObject({ clockAtStart: '2027-03-18 17:55', timeZone: 'Europe/Vienna' });
  });

  it.each([250, 499, 500, 750])(
    "moves by whole seconds, so that its moments fall on the real clock's, reading REHEARSAL_CLOCK within half a second of a start %i ms into a second",
    (intoSecond) => {
      const startedAt = STARTED + intoSecond;
      const rehearsal = rehearsalClock(setting('2027-03-18T17:55'), 'Europe/Vienna', startedAt);
      expect(rehearsal.shiftMs % 1000).toBe(0);
      const lag = eventNow(rehearsal.shiftMs, startedAt) - Date.UTC(2027, 2, 18, 16, 55);
      expect(Math.abs(lag)).toBeLessThanOrEqual(500);
    },
  );

  it('reads the same wall clock as another instant in another zone', () => {
    const newYork = rehearsalClock(setting('2027-03-18T17:55'), 'America/New_York', STARTED);
    // New York is already on summer time (UTC−4) on 18 March 2027.
    expect(eventNow(newYork.shiftMs, STARTED)).toBe(Date.UTC(2027, 2, 18, 21, 55));
  });

  it('takes an instant with its offset as it is, and names it on the event wall clock', () => {
    const rehearsal = rehearsalClock(setting('2027-03-18T16:55Z'), 'Europe/Vienna', STARTED);
    expect(eventNow(rehearsal.shiftMs, STARTED)).toBe(Date.UTC(2027, 2, 18, 16, 55));
    expect(rehearsal.clockAtStart).toBe('2027-03-18 17:55');
  });

  it('converts a wall clock next to a daylight-saving change as zonedTimeToUtc does, by the offset of that day', () => {
    // Vienna springs forward at 02:00 on 28 March 2027 and falls back at 03:00 on 31 October 2027.
    const cases = [
      ['2027-03-28T01:30', Date.UTC(2027, 2, 28, 0, 30)],
      ['2027-03-28T03:30', Date.UTC(2027, 2, 28, 1, 30)],
      ['2027-10-31T01:30', Date.UTC(2027, 9, 30, 23, 30)],
      ['2027-10-31T03:30', Date.UTC(2027, 9, 31, 2, 30)],
    ] as const;
    for (const [given, expected] of cases) {
      const rehearsal = rehearsalClock(setting(given), 'Europe/Vienna', STARTED);
      const [date, time] = given.split('T') as [string, string];
      expect(eventNow(rehearsal.shiftMs, STARTED), given).toBe(expected);
      expect(eventNow(rehearsal.shiftMs, STARTED)).toBe(zonedTimeToUtc(date, time, 'Europe/Vienna').getTime());
      expect(rehearsal.clockAtStart).toBe(given.replace('T', ' '));
    }
  });

  it('names the time a wall clock in the spring gap reads as, the hour that exists', () => {
    const rehearsal = rehearsalClock(setting('2027-03-28T02:30'), 'Europe/Vienna', STARTED);
    expect(eventNow(rehearsal.shiftMs, STARTED)).toBe(zonedTimeToUtc('2027-03-28', '02:30', 'Europe/Vienna').getTime());
    expect(rehearsal.clockAtStart).toBe('2027-03-28 03:30');
  });

  it('may lie behind the real clock: a rehearsal of the end after the day', () => {
    const rehearsal = rehearsalClock(setting('2026-01-01T12:00Z'), 'Etc/GMT', STARTED);
    expect(rehearsal.shiftMs).toBeLessThan(0);
    expect(eventNow(rehearsal.shiftMs, STARTED)).toBe(Date.UTC(2026, 0, 1, 12));
  });
});
