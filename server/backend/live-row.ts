import { parseTree } from 'jsonc-parser';
import { nearestName } from '../content/findings.ts';
import { checkLiveValue, type LiveChanges } from '../content/live-file.ts';
import type { LiveRules } from '../content/live-rules.ts';
import { BackendDataError } from './backend-data.ts';

/**
 * The backend's live row: the table `live_state` (supabase/migrations/), one row the event team
 * edits in Supabase's table editor. A column per language (`notice_de`, `notice_en` …) beside
 * `notice_level`, `status`, `start_time` and `end_time`, `stream_embed_url` for a backup stream,
 * `recording_embed_url` and `recording_begins_at` for the recording: one plain text field each on
 * a phone, no JSON to type. The row is put in the live file's
 * shape and checked with the live file's rules and words, its findings naming the column.
 */
export const LIVE_TABLE = 'live_state';

const NOTICE_LEVEL = 'notice_level';
const STATUS = 'status';
const START_TIME = 'start_time';
const END_TIME = 'end_time';
/** A backup stream's address. */
const STREAM_EMBED_URL = 'stream_embed_url';
/** The recording's address, and the moment of the broadcast it begins at. */
const RECORDING_EMBED_URL = 'recording_embed_url';
const RECORDING_BEGINS_AT = 'recording_begins_at';
const UPDATED_AT = 'updated_at';
const NOTICE_TEXT = /^notice_(?!level$)(.+)$/;
/** Columns every row has, as the migration makes them; a notice's columns are one per language. */
const REQUIRED_COLUMNS = ['id', NOTICE_LEVEL, STATUS, UPDATED_AT] as const;
/**
 * Columns later migrations add (20261127000000_live_schedule.sql, 20261127000100_live_stream.sql,
 * 20261207120000_live_recording.sql): a table made before them has none, and the row moves no
 * times and names no backup stream or recording.
 */
const LATER_COLUMNS = [START_TIME, END_TIME, STREAM_EMBED_URL, RECORDING_EMBED_URL, RECORDING_BEGINS_AT] as const;
const KNOWN_COLUMNS = [...REQUIRED_COLUMNS, ...LATER_COLUMNS];

/** A row checked: what it says and when it was last saved, or why it is refused. */
export type RowCheck =
  { live: LiveChanges; updated: string; warnings: string[] } | { live: null; problems: string[]; warnings: string[] };

/**
 * Checks PostgREST's answer for the table: `rows` as supabase-js parsed it, `text` as it came
 * (a column written twice is seen only there). What is not a list of rows is the backend answering
 * something else (BackendDataError, as for the hero's calls); a row the rules refuse is a bad change.
 * A column this server does not read is left out with a warning: migrations go before the release.
 */
export function checkLiveRow(rows: unknown, text: string, rules: LiveRules): RowCheck {
  if (!Array.isArray(rows)) throw new BackendDataError(`${LIVE_TABLE} answered something that is not a list of rows`);
  if (rows.length === 0) return refused([`${LIVE_TABLE} has no row: the live state needs its one row (id 1)`]);
  if (rows.length > 1) return refused([`${LIVE_TABLE} has more than one row: the live state is one row (id 1)`]);
  const row: unknown = rows[0];
  if (typeof row !== 'object' || row === null || Array.isArray(row))
    throw new BackendDataError(`${LIVE_TABLE} answered a row that is not an object`);
  const columns = row as Record<string, unknown>;

  const problems = [
    ...columnsWrittenTwice(text).map((column) => `${column} is in the row twice; a column may be there once`),
    ...REQUIRED_COLUMNS.filter((column) => !(column in columns)).map((column) => `${column} is missing`),
  ];
  // A migration applied before the release that reads its column must not take the row down.
  const unread = Object.keys(columns)
    .filter((column) => !isKnown(column))
    .map((column) => {
      const nearest = nearestName(column, [...KNOWN_COLUMNS, ...languageColumns(rules.languages)]);
      return `warning: \`${column}\` is a column this server does not read (a later release's?); it is left out${nearest ? `; did you mean \`${nearest}\`?` : ''}`;
    });
  const updated = columns[UPDATED_AT];
  if (UPDATED_AT in columns && (typeof updated !== 'string' || !Number.isFinite(Date.parse(updated))))
    problems.push(`${UPDATED_AT} must be a time`);

  // Every problem at once, as for the live file.
  const checked = checkLiveValue(inFileShape(columns), { lineOf: () => 1, nameOf: columnOf }, rules);
  problems.push(...checked.problems.map((finding) => finding.message));
  const warnings = [...unread, ...checked.warnings.map((finding) => `warning: ${finding.message}`)];
  if (!checked.live || problems.length > 0) return { live: null, problems, warnings };
  return { live: checked.live, updated: new Date(updated as string).toISOString(), warnings };
}

function refused(problems: string[]): RowCheck {
  return { live: null, problems, warnings: [] };
}

const isKnown = (column: string) => (KNOWN_COLUMNS as readonly string[]).includes(column) || NOTICE_TEXT.test(column);

const languageColumns = (languages: readonly string[]) => languages.map((code) => `notice_${code}`);

/**
 * A cell left empty is as good as NULL: the table editor on a phone saves an emptied text field as
 * an empty text, and an editor clears a field to take its part down.
 */
const blankAsNull = (value: unknown) =>
  value === undefined || (typeof value === 'string' && value.trim() === '') ? null : value;

/**
 * The row in the live file's shape: a notice when its level or any of its texts is filled in, a
 * stream when its address is, a recording when either of its columns is.
 */
function inFileShape(columns: Record<string, unknown>): Record<string, unknown> {
  const text: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(columns)) {
    const code = NOTICE_TEXT.exec(column)?.[1];
    if (code !== undefined && blankAsNull(value) !== null) text[code] = value;
  }
  const level = blankAsNull(columns[NOTICE_LEVEL]);
  const notice = level === null && Object.keys(text).length === 0 ? null : { level: level ?? undefined, text };
  const streamUrl = blankAsNull(columns[STREAM_EMBED_URL]);
  const recordingUrl = blankAsNull(columns[RECORDING_EMBED_URL]);
  const beginsAt = blankAsNull(columns[RECORDING_BEGINS_AT]);
  return {
    notice,
    status: blankAsNull(columns[STATUS]),
    startTime: blankAsNull(columns[START_TIME]),
    endTime: blankAsNull(columns[END_TIME]),
    stream: streamUrl === null ? null : { embedUrl: streamUrl },
    // A beginning without an address is refused as the recording's missing address.
    recording:
      recordingUrl === null && beginsAt === null
        ? null
        : { embedUrl: recordingUrl ?? undefined, beginsAt: beginsAt ?? undefined },
  };
}

/** The column a field of the live file's shape comes from. */
function columnOf(path: readonly PropertyKey[]): string {
  const [first, second, third] = path.map(String);
  if (first === 'notice' && second === 'level') return NOTICE_LEVEL;
  if (first === 'notice' && second === 'text' && third !== undefined) return `notice_${third}`;
  if (first === 'notice') return 'the notice';
  if (first === 'startTime') return START_TIME;
  if (first === 'endTime') return END_TIME;
  if (first === 'stream') return STREAM_EMBED_URL;
  if (first === 'recording' && second === 'beginsAt') return RECORDING_BEGINS_AT;
  if (first === 'recording') return RECORDING_EMBED_URL;
  return first ?? 'the row';
}

/** Columns written twice in a row of the answer as it came, which JSON.parse would silently merge. */
function columnsWrittenTwice(text: string): string[] {
  const root = parseTree(text);
  const twice = new Set<string>();
  for (const row of root?.type === 'array' ? (root.children ?? []) : []) {
    const seen = new Set<string>();
    for (const property of row.type === 'object' ? (row.children ?? []) : []) {
      const name = property.children?.[0]?.value as unknown;
      if (typeof name !== 'string') continue;
      if (seen.has(name)) twice.add(name);
      seen.add(name);
    }
  }
  return [...twice];
}
