import type { EventTimes } from '../shared/event-clock.ts';

/**
 * The event's start and end on the visitor's wall clock, formatted for `locale`
 * ("00:00–03:30", with the date when the visitor's day is another than the event's);
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

  const day = (zone: string) => new Intl.DateTimeFormat('en-CA', { dateStyle: 'short', timeZone: zone }).format(start);
  const sameDay = day(eventZone) === day(visitorZone);
  return new Intl.DateTimeFormat(locale, {
    ...(sameDay ? {} : { weekday: 'short', day: 'numeric', month: 'short' }),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: visitorZone,
  }).formatRange(start, end);
}
