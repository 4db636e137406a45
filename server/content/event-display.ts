import { MINUTE_MS } from '../../shared/event-clock.ts';
import type { EventDisplay } from '../../shared/page-data.ts';
import { offsetMs } from './event-time.ts';

/**
 * The event's date and its times as a page in `locale` shows them, on the event's own clock, with
 * the start of each of the programme's segments (`programme`, ms since the epoch).
 */
export function eventDisplayIn(
  locale: string,
  start: Date,
  end: Date,
  timeZone: string,
  programme: readonly number[],
): EventDisplay {
  const clockTime = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone });
  return {
    date: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone }).format(start),
    time: new Intl.DateTimeFormat(locale, {
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
      timeZone,
    }).formatRange(start, end),
    programme: programme.map((segmentStart) => clockTime.format(segmentStart)),
  };
}

/** The zone's offset from UTC at the start and at the end, in minutes east. */
export function utcOffsetMinutes(start: Date, end: Date, timeZone: string): { start: number; end: number } {
  return {
    start: offsetMs(start.getTime(), timeZone) / MINUTE_MS,
    end: offsetMs(end.getTime(), timeZone) / MINUTE_MS,
  };
}
