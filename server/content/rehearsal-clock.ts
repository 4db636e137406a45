import type { RehearsalClockSetting } from '../config/environment.ts';
import type { Rehearsal } from '../../shared/rehearsal.ts';
import { toZonedIsoString, zonedTimeToUtc } from './event-time.ts';

/**
 * A rehearsal's event clock, fixed once at `startedAt` (the real clock's ms when the server
 * starts): the shift that makes it read REHEARSAL_CLOCK then, a wall-clock time taken in the
 * event's zone (the content file's, so this is resolved once both are read), and that reading as
 * the page names it, on the event's wall clock. From then on the event clock runs at the real
 * clock's pace: event time = real time + shift.
 */
export function rehearsalClock(setting: RehearsalClockSetting, timeZone: string, startedAt: number): Rehearsal {
  const reading =
    'wallClock' in setting
      ? zonedTimeToUtc(setting.wallClock.date, setting.wallClock.time, timeZone).getTime()
      : setting.instant;
  const wall = toZonedIsoString(new Date(reading), timeZone);
  return { shiftMs: reading - startedAt, clockAtStart: `${wall.slice(0, 10)} ${wall.slice(11, 16)}`, timeZone };
}
