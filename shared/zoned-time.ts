import { MINUTE_MS } from './event-clock.ts';

/**
 * An instant as ISO 8601 wall-clock time with the zone's offset at it, to the second
 * ("2027-03-18T18:00:00+01:00"): what search engines prefer, since it keeps the local time.
 */
export function zonedIsoString(instant: number, utcOffsetMinutes: number): string {
  const offset = Math.round(utcOffsetMinutes);
  const wallClock = new Date(Math.floor(instant / 1000) * 1000 + offset * MINUTE_MS).toISOString().slice(0, 19);
  const minutes = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  return `${wallClock}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
