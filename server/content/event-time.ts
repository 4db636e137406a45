import { MINUTE_MS } from '../../shared/event-clock.ts';
import { zonedIsoString } from '../../shared/zoned-time.ts';

/**
 * The UTC instant of a wall-clock time in an IANA time zone, without a date library:
 * take the wall clock as if it were UTC, then correct by the zone's offset at that instant
 * (twice, so that a time next to a daylight-saving change lands right).
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  let instant = asUtc - offsetMs(asUtc, timeZone);
  instant = asUtc - offsetMs(instant, timeZone);
  return new Date(instant);
}

/**
 * The broadcast's planned length in seconds, from its start to its end on its date in its zone:
 * an hour less or more than the wall clocks say on a day the clocks change between them.
 */
export function plannedSeconds(event: { date: string; startTime: string; endTime: string; timeZone: string }): number {
  const at = (time: string) => zonedTimeToUtc(event.date, time, event.timeZone).getTime();
  return (at(event.endTime) - at(event.startTime)) / 1000;
}

/** The zone's offset from UTC at an instant, in milliseconds. */
export function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wallClock = Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
  return wallClock - Math.floor(instant / 1000) * 1000;
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An instant as ISO 8601 wall-clock time in a zone with its offset ("2027-03-18T18:00:00+01:00"). */
export function toZonedIsoString(instant: Date, timeZone: string): string {
  return zonedIsoString(instant.getTime(), offsetMs(instant.getTime(), timeZone) / MINUTE_MS);
}
