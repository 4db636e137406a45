import type { PublicEvent } from '../shared/page-data.ts';
import type { EventTimes } from '../shared/event-clock.ts';

/**
 * Whether this browser's clock shows the event's start and end as the event's zone does.
 * It compares UTC offsets, which costs nothing, where asking Intl for the visitor's zone
 * costs the first formatter's set-up (some 20 ms on a phone's main thread, four times that
 * on a slow one): visitors in the event's zone never pay it.
 */
export function onEventWallClock({ start, end, utcOffsetMinutes }: PublicEvent): boolean {
  const offsetEast = (instant: number) => -new Date(instant).getTimezoneOffset();
  return offsetEast(start) === utcOffsetMinutes.start && offsetEast(end) === utcOffsetMinutes.end;
}

/**
 * The event's start and end on the visitor's wall clock, formatted for `locale`
 * ("00:00–03:30", with the days where the visitor's day is another than the event's at either end);
 * null when the visitor's zone shows the same wall-clock times as the event's.
 */
export function visitorTimeRange(
  { start, end }: EventTimes,
  eventZone: string,
  visitorZone: string,
  locale: string,
): string | null {
  const wallClock = (zone: string) =>
    new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeStyle: 'short', hourCycle: 'h23', timeZone: zone });
  const inEvent = wallClock(eventZone);
  const inVisitor = wallClock(visitorZone);
  if (inEvent.format(start) === inVisitor.format(start) && inEvent.format(end) === inVisitor.format(end)) return null;

  // The event lies within one day of its own zone; on the visitor's clock it may start on
  // another day, or end on the next.
  const day = (zone: string, instant: number) =>
    new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone: zone }).format(instant);
  const eventDay = day(eventZone, start);
  const sameDay = day(visitorZone, start) === eventDay && day(visitorZone, end) === eventDay;
  return new Intl.DateTimeFormat(locale, {
    ...(sameDay ? {} : { weekday: 'short', day: 'numeric', month: 'short' }),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: visitorZone,
  }).formatRange(start, end);
}

/** An instant on a zone's wall clock, as a page in `locale` writes a time of day ("19:15"). */
export function clockTimeIn(instant: number, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone }).format(instant);
}
