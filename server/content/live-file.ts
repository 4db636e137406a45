import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { EVENT_STATUSES } from '../../shared/event-clock.ts';
import { NOTICE_LEVELS, type LiveState } from '../../shared/live-state.ts';
import type { PublicRecording } from '../../shared/page-data.ts';
import { describeIssues, fieldName, formatFinding, type Finding } from './findings.ts';
import { parseJsonSource } from './json-source.ts';
import { languageCode, refuseWith } from './site-content.ts';
import type { LiveRules } from './live-rules.ts';
import { plannedSeconds } from './event-time.ts';
import { checkLiveRecording, liveRecordingField } from './live-recording.ts';
import { checkSchedule, liveTime } from './live-schedule.ts';
import { checkLiveStream, liveStreamField } from './live-stream.ts';
import { lengthProblem, TEXT_LIMITS } from './text-limits.ts';

/** What the live file says, before it is given a version and a time: no notice, status or stream when it is missing. */
export type LiveChanges = Omit<LiveState, 'version' | 'updated' | 'recording'> & {
  recording: PublicRecording | null;
};

export const NO_LIVE_CHANGES: LiveChanges = {
  notice: null,
  status: null,
  schedule: null,
  stream: null,
  recording: null,
};

const noticeText = z
  .string()
  .trim()
  .min(1)
  .superRefine(refuseWith((value) => lengthProblem(value, TEXT_LIMITS.notice)))
  .meta({ maxLength: TEXT_LIMITS.notice });

/**
 * The live file's shape: what the event team changes on the day without a restart. A notice is
 * text, never markup: the page shows `<b>` as the four characters it is.
 */
export const liveSchema = z.strictObject({
  $schema: z.string().optional().describe('The JSON Schema an editor checks the file against: "./live.schema.json"'),
  notice: z
    .strictObject({
      level: z.enum(NOTICE_LEVELS).describe('"info", or "warning" to stand out'),
      text: z
        .record(languageCode, noticeText)
        .describe('The notice per language code; a language without one shows the default language’s'),
    })
    .nullable()
    .optional()
    .describe('Shown at the top of every page; remove it (or null) to take the notice down'),
  status: z
    .enum(EVENT_STATUSES)
    .nullable()
    .optional()
    .describe('The event’s status in place of the content file’s event.status; remove it to go back to that'),
  startTime: liveTime
    .nullable()
    .optional()
    .describe('The start on the day, like 18:15, in place of the content file’s event.startTime (a delay)'),
  endTime: liveTime
    .nullable()
    .optional()
    .describe(
      'The end on the day, like 21:30, in place of the content file’s event.endTime (a longer broadcast, an early end)',
    ),
  stream: liveStreamField,
  recording: liveRecordingField,
});

/** What checking the live file's text found: its changes when usable, its problems and its warnings. */
export interface LiveCheck {
  live: LiveChanges | null;
  problems: Finding[];
  warnings: Finding[];
}

/**
 * Checks the live file's text with the content file's rules and words: every problem at once, each
 * on its field's line. A notice for a language not offered is left out with a warning, and one
 * without the default language's text is refused.
 */
export function checkLiveText(text: string, rules: LiveRules): LiveCheck {
  const source = parseJsonSource(text);
  if (source.value === undefined) return { live: null, problems: source.problems, warnings: source.warnings };
  const checked = checkLiveValue(source.value, { lineOf: source.lineOf, nameOf: fieldName }, rules);
  const problems = [...source.problems, ...checked.problems].sort((a, b) => a.line - b.line);
  return {
    live: problems.length > 0 ? null : checked.live,
    problems,
    warnings: [...source.warnings, ...checked.warnings],
  };
}

/** Where a checked value's fields are and what they are called: the file's lines and fields, or a row's columns. */
export interface LiveFields {
  lineOf(path: readonly PropertyKey[]): number;
  nameOf(path: readonly PropertyKey[]): string;
}

/**
 * The live state's rules, whatever it was written in: the live file, or the backend's row
 * (server/backend/live-row.ts) once put in the file's shape. The findings name each field as
 * `fields` does.
 */
export function checkLiveValue(value: unknown, fields: LiveFields, rules: LiveRules): LiveCheck {
  const { languages } = rules;
  const problems: Finding[] = [];
  const warnings: Finding[] = [];
  const parsed = liveSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(...describeIssues(parsed.error.issues, { value, lineOf: fields.lineOf }, liveSchema, fields.nameOf));
    return { live: null, problems, warnings };
  }

  const { notice, status, startTime, endTime } = parsed.data;
  const timed = checkSchedule({ startTime, endTime }, rules.event, fields);
  problems.push(...timed.problems);
  const backup = checkLiveStream(parsed.data.stream, fields, rules.stream);
  problems.push(...backup.problems);
  warnings.push(...backup.warnings);
  const length = timed.schedule
    ? (timed.schedule.end - timed.schedule.start) / 1000
    : rules.event && plannedSeconds(rules.event);
  const recorded = checkLiveRecording(parsed.data.recording, fields, rules.stream, length);
  problems.push(...recorded.problems);
  warnings.push(...recorded.warnings);
  const text = notice ? noticeTexts(notice.text, fields, languages, problems, warnings) : null;
  if (problems.length > 0) return { live: null, problems, warnings };
  return {
    live: {
      notice: notice && text ? { level: notice.level, text } : null,
      status: status ?? null,
      schedule: timed.schedule,
      stream: backup.stream,
      recording: recorded.recording,
    },
    problems,
    warnings,
  };
}

/**
 * The notice's texts in the offered languages: one for another language is left out with a
 * warning, and one without the default language's text is a problem.
 */
function noticeTexts(
  text: Record<string, string>,
  fields: LiveFields,
  languages: readonly string[],
  problems: Finding[],
  warnings: Finding[],
): Record<string, string> | null {
  const offered = Object.entries(text).filter(([code]) => {
    if (languages.includes(code)) return true;
    const path = ['notice', 'text', code];
    warnings.push({
      line: fields.lineOf(path),
      message: `${fields.nameOf(path)} is for a language that the content file does not offer (${languages.join(', ')}); it is left out`,
    });
    return false;
  });
  const defaultLanguage = languages[0];
  if (defaultLanguage !== undefined && !offered.some(([code]) => code === defaultLanguage)) {
    problems.push({
      line: fields.lineOf(['notice', 'text']),
      message: `${fields.nameOf(['notice', 'text', defaultLanguage])} is missing: a notice needs a text in the default language, which pages in a language it does not cover show`,
    });
    return null;
  }
  return Object.fromEntries(offered);
}

/** The live file's text and modification time, or null when there is none: a missing file means no live changes. */
export function readLiveFile(filePath: string): { text: string; modified: Date } | null {
  let fd: number;
  try {
    fd = openSync(filePath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // One open file for both: a swap between a stat and a read would pair one file's text with another's time.
  try {
    return { modified: fstatSync(fd).mtime, text: readFileSync(fd, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

/** The live file checked: its changes when usable, and its findings as lines naming the file. */
export interface LiveFileCheck {
  live: LiveChanges | null;
  problems: string[];
  warnings: string[];
}

/** The live file read and checked, its findings naming `shown` (the file as the operator gave it). */
export function checkLiveFile(filePath: string, shown: string, rules: LiveRules): LiveFileCheck {
  let text: string | null;
  try {
    text = readLiveFile(filePath)?.text ?? null;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return { live: null, problems: [`${shown}: cannot be read (${reason})`], warnings: [] };
  }
  return checkLiveFileText(text, shown, rules);
}

/** The live file's text (null: there is none, which means no live changes) checked, as checkLiveFile tells it. */
export function checkLiveFileText(text: string | null, shown: string, rules: LiveRules): LiveFileCheck {
  if (text === null) return { live: NO_LIVE_CHANGES, problems: [], warnings: [] };
  const checked = checkLiveText(text, rules);
  return {
    live: checked.live,
    problems: checked.problems.map((finding) => formatFinding(shown, finding)),
    warnings: checked.warnings.map((finding) =>
      formatFinding(shown, { ...finding, message: `warning: ${finding.message}` }),
    ),
  };
}
