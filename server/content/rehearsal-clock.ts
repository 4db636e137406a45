import type { RehearsalClockSetting } from '../config/environment.ts';
import type { Rehearsal } from '../../shared/rehearsal.ts';
import { toZonedIsoString, zonedTimeToUtc } from './event-time.ts';

/**
 * A rehearsal's event clock, fixed once at `startedAt` (the real clock's ms when the server
 * starts): the shift that makes it read REHEARSAL_CLOCK then, a wall-clock time taken in the
 * event's zone (the content file's, so this is resolved once both are read), and that reading as
 * the page names it, on the event's wall clock. From then on the event clock runs at the real
 * clock's pace: event time = real time + shift. It reads REHEARSAL_CLOCK within half a second of the start.
 */
export function rehearsalClock(setting: RehearsalClockSetting, timeZone: string, startedAt: number): Rehearsal {
  const reading =
    'wallClock' in setting
      ? zonedTimeToUtc(setting.wallClock.date, setting.wallClock.time, timeZone).getTime()
      : setting.instant;
  const wall = toZonedIsoString(new Date(reading), timeZone);
  // Whole seconds, so that its moments fall on the real clock's seconds as the day's do: an HTTP
  // cache counts a page's lifetime in whole seconds, and would keep a countdown past a start
  // that fell within one.
  const shiftMs = Math.round((reading - startedAt) / 1000) * 1000;
  return { shiftMs, clockAtStart: `${wall.slice(0, 10)} ${wall.slice(11, 16)}`, timeZone };
}
