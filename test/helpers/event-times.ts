import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';

export interface EventFields {
  date: string;
  startTime: string;
  endTime: string;
  timeZone: string;
}

/**
 * The content file's event fields for an event that starts at `start` (on a whole minute)
 * and lasts `minutes`, given in a fixed-offset zone (`Etc/GMT±N`) where it falls around
 * midday, so that it never crosses midnight there whatever the hour in UTC.
 */
export function eventFieldsAt(start: number, minutes: number): EventFields {
  if (start % 60_000 !== 0) throw new Error('the content file gives times to the minute');
  const offsetHours = 12 - new Date(start).getUTCHours();
  // Etc/GMT zones count the other way round: Etc/GMT-5 is five hours ahead of UTC.
  const timeZone = offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
  const wall = (instant: number) => new Date(instant + offsetHours * 3_600_000).toISOString();
  const startWall = wall(start);
  const endWall = wall(start + minutes * 60_000);
  if (startWall.slice(0, 10) !== endWall.slice(0, 10)) throw new Error('an event within one day only');
  return {
    date: startWall.slice(0, 10),
    startTime: startWall.slice(11, 16),
    endTime: endWall.slice(11, 16),
    timeZone,
  };
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * Gives a content file's event new fields (its times, a status…), with its programme fitted into
 * the new times: each segment keeps its share of the broadcast, on whole minutes, and one that
 * would share its minute with the segment before is left out.
 */
export function moveEvent(file: Record<string, any>, ...fields: object[]): void {
  const before = { start: minutesOf(file.event.startTime), end: minutesOf(file.event.endTime) };
  Object.assign(file.event, ...fields);
  if (!file.programme) return;
  const after = { start: minutesOf(file.event.startTime), end: minutesOf(file.event.endTime) };
  const scale = (after.end - after.start) / (before.end - before.start);
  const starts = new Set<number>();
  file.programme = (file.programme as { start: string }[]).flatMap((segment) => {
    const start = after.start + Math.floor((minutesOf(segment.start) - before.start) * scale);
    if (starts.has(start)) return [];
    starts.add(start);
    return [{ ...segment, start: timeOf(start) }];
  });
}

/** The shipped content file with an edit, written to a temporary file: its path. */
export function contentFileWith(edit: (file: Record<string, any>) => void): string {
  const file = JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as Record<string, any>;
  edit(file);
  const filePath = path.join(mkdtempSync(path.join(tmpdir(), 'content-')), 'event.json');
  writeFileSync(filePath, JSON.stringify(file));
  return filePath;
}

/** A content file whose event starts at `start` and lasts `minutes`. */
export function contentFileForEvent(start: number, minutes: number, extra: Record<string, unknown> = {}): string {
  return contentFileWith((file) => moveEvent(file, eventFieldsAt(start, minutes), extra));
}

/** The next whole minute at least `ms` from now. */
export function wholeMinuteFromNow(ms: number): number {
  return Math.ceil((Date.now() + ms) / 60_000) * 60_000;
}

/** An instant on the wall clock of `timeZone`, as the event team writes a time: "18:15". */
export function wallClockTime(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(
    instant,
  );
}
