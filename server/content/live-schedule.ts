import { z } from 'zod';
import type { EventStatus } from '../../shared/event-clock.ts';
import type { LiveSchedule } from '../../shared/live-state.ts';
import { zonedTimeToUtc } from './event-time.ts';
import type { Finding } from './findings.ts';

/**
 * The day's times in the live state: a start moved by a delay, an end moved by a longer broadcast
 * or an early end. They move the content file's times within its day, on its clock; the content
 * file stays the plan (docs/event-team.md says when to copy a change back into it).
 */

/** The content file's plan, which the live state's times move, and how a schedule is formed for the page. */
export interface LiveEventRules {
  /** event.date, event.startTime, event.endTime and event.timeZone as the content file gives them. */
  date: string;
  startTime: string;
  endTime: string;
  timeZone: string;
  /** event.status: what the page states where the live state gives no status of its own. */
  status: EventStatus;
  /** The schedule the page carries for these instants: its date and times in every offered language. */
  form(start: Date, end: Date): LiveSchedule;
}

/** A time on the event's clock: "18:15", or with the event's date, "2027-03-18T18:15". */
const LIVE_TIME = /^(?:(\d{4}-\d{2}-\d{2})T)?(([01]\d|2[0-3]):[0-5]\d)$/;

export const liveTime = z
  .string()
  .trim()
  .regex(LIVE_TIME, 'must be a time like 18:15 on the event’s clock (or with its date, like 2027-03-18T18:15)')
  .meta({ pattern: LIVE_TIME.source });

export interface ScheduleFields {
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
}

/** Where a field of the live state stands and what it is called (the file's lines, or the row's columns). */
interface FieldPlaces {
  lineOf(path: readonly PropertyKey[]): number;
  nameOf(path: readonly PropertyKey[]): string;
}

/**
 * The schedule the live state's times give, or why they are refused: a time on another day than
 * the event's (a new day is a change of the content file, not of the day's times), or an end
 * that is not later than the start, either of them the content file's where the live state keeps
 * it. Times equal to the plan's move nothing: no schedule. Without the content's event (its file
 * has problems of its own) nothing can be formed or compared.
 */
export function checkSchedule(
  fields: ScheduleFields,
  event: LiveEventRules | null,
  places: FieldPlaces,
): { schedule: LiveSchedule | null; problems: Finding[] } {
  const problems: Finding[] = [];
  const given = { startTime: fields.startTime ?? null, endTime: fields.endTime ?? null };
  if (!event || (given.startTime === null && given.endTime === null)) return { schedule: null, problems };

  const problemAt = (field: keyof ScheduleFields, message: string) =>
    problems.push({ line: places.lineOf([field]), message: `${places.nameOf([field])} ${message}` });

  const timeOf = (field: keyof ScheduleFields): string | null => {
    const value = given[field];
    if (value === null) return null;
    const [, date, time] = LIVE_TIME.exec(value) ?? [];
    if (time === undefined) return null;
    if (date !== undefined && date !== event.date)
      problemAt(
        field,
        `"${value}" is on another day than the event (event.date "${event.date}" in the content file): the live state moves the times within the day; a new day is a change of the content file`,
      );
    return time;
  };
  const start = timeOf('startTime') ?? event.startTime;
  const end = timeOf('endTime') ?? event.endTime;
  if (problems.length > 0) return { schedule: null, problems };

  if (end <= start) {
    if (given.endTime !== null)
      problemAt(
        'endTime',
        `"${given.endTime}" must be later than the start, ${start}${given.startTime === null ? ' (the content file’s event.startTime)' : ''}`,
      );
    else
      problemAt(
        'startTime',
        `"${given.startTime}" must be earlier than the end, ${end} (the content file’s event.endTime)`,
      );
    return { schedule: null, problems };
  }
  if (start === event.startTime && end === event.endTime) return { schedule: null, problems };
  return {
    schedule: event.form(
      zonedTimeToUtc(event.date, start, event.timeZone),
      zonedTimeToUtc(event.date, end, event.timeZone),
    ),
    problems,
  };
}
