import { describe, expect, it } from 'vitest';
import { BackendDataError } from '../../server/backend/backend-data.ts';
import { checkLiveRow } from '../../server/backend/live-row.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { TEXT_LIMITS } from '../../server/content/text-limits.ts';
import { liveRulesOf, liveRulesOfLanguages } from '../../server/content/live-rules.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { EMPTY_LIVE_ROW } from '../../scripts/harness/fake-supabase.ts';
import { LIVE_ROW_CASES } from './live-row-cases.ts';

/**
 * The backend's live row is checked with the live file's rules and words, each finding naming its
 * column instead of a file and line.
 */
const RULES = liveRulesOfLanguages(['de', 'en', 'es']);
const row = (columns: Record<string, unknown>) => ({ ...EMPTY_LIVE_ROW, ...columns });
const check = (...rows: unknown[]) => checkLiveRow(rows, JSON.stringify(rows), RULES);
const problems = (...rows: unknown[]) => {
  const checked = check(...rows);
  return checked.live ? [] : checked.problems;
};

describe('the live row’s check', () => {
  it('takes a notice from its level and a column per language, the status, and when it was saved', () => {
    expect(
      check(
        row({
          notice_level: 'warning',
          notice_de: 'Beginn um 18:15',
          notice_en: 'Start at 18:15',
          status: 'EventPostponed',
          updated_at: '2027-03-18T16:40:12.5+00:00',
        }),
      ),
    ).toEqual({
      live: {
        notice: { level: 'warning', text: { de: 'Beginn um 18:15', en: 'Start at 18:15' } },
        status: 'EventPostponed',
        schedule: null,
        stream: null,
        recording: null,
      },
      updated: '2027-03-18T16:40:12.500Z',
      warnings: [],
    });
  });

  it('takes a row with nothing filled in, or only emptied fields, as no live changes', () => {
    expect(check(row({})).live).toEqual({ notice: null, status: null, schedule: null, stream: null, recording: null });
    expect(check(row({ notice_level: '', notice_de: '  ', status: '' })).live).toEqual({
      notice: null,
      status: null,
      schedule: null,
      stream: null,
      recording: null,
    });
  });

  it('keeps HTML in a notice as the text it is', () => {
    const html = '<b>Neu</b> <script>alert(1)</script>';
    expect(check(row({ notice_level: 'info', notice_de: html })).live?.notice?.text.de).toBe(html);
  });

  it(`refuses a notice over ${TEXT_LIMITS.notice} characters, naming the column`, () => {
    const long = 'ü'.repeat(TEXT_LIMITS.notice + 1);
    expect(problems(row({ notice_level: 'info', notice_de: 'ok', notice_en: long }))).toEqual([
      `notice_en "${long.slice(0, 77)}..." has ${TEXT_LIMITS.notice + 1} characters, at most ${TEXT_LIMITS.notice}`,
    ]);
  });

  it('refuses an unknown status and level, and a notice without its level or the default language', () => {
    expect(problems(row({ notice_level: 'alarm', notice_de: 'x', status: 'EventDelayed' }))).toEqual([
      'notice_level "alarm" must be one of "info", "warning"',
      'status "EventDelayed" must be one of "EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled", "EventMovedOnline"',
    ]);
    expect(problems(row({ notice_de: 'x' }))).toEqual(['notice_level must be one of "info", "warning"']);
    expect(problems(row({ notice_level: 'info', notice_en: 'Hello' }))).toEqual([
      'notice_de is missing: a notice needs a text in the default language, which pages in a language it does not cover show',
    ]);
  });

  it('leaves out a notice for a language not offered, with a warning naming the column', () => {
    const checked = check(row({ notice_level: 'info', notice_de: 'Hallo', notice_fr: 'Salut' }));
    expect(checked.live?.notice?.text).toEqual({ de: 'Hallo' });
    expect(checked.warnings).toEqual([
      'warning: notice_fr is for a language that the content file does not offer (de, en, es); it is left out',
    ]);
  });

  it('leaves out a column it does not read, as a migration ahead of its release adds, with a warning', () => {
    const checked = check(row({ status: 'EventCancelled', recording_url: 'https://example.com', notise_en: 'x' }));
    expect(checked.live?.status).toBe('EventCancelled');
    expect(checked.warnings).toEqual([
      "warning: `recording_url` is a column this server does not read (a later release's?); it is left out",
      "warning: `notise_en` is a column this server does not read (a later release's?); it is left out; did you mean `notice_en`?",
    ]);
  });

  it('refuses a column the answer has twice', () => {
    const text =
      '[{"id":1,"notice_level":null,"notice_de":null,"status":"EventCancelled","status":null,"start_time":null,"end_time":null,"updated_at":"2026-11-26T08:00:00+00:00"}]';
    const checked = checkLiveRow(JSON.parse(text), text, RULES);
    expect(checked.live).toBeNull();
    expect(!checked.live && checked.problems).toEqual(['status is in the row twice; a column may be there once']);
  });

  it('names every problem of a row at once', () => {
    expect(problems(row({ updated_at: 'yesterday', status: 'EventDelayed' }))).toEqual([
      'updated_at must be a time',
      'status "EventDelayed" must be one of "EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled", "EventMovedOnline"',
    ]);
  });

  it('refuses no row, an empty row, more than one row and a time that is not one', () => {
    expect(problems()).toEqual(['live_state has no row: the live state needs its one row (id 1)']);
    expect(problems({})).toEqual([
      'id is missing',
      'notice_level is missing',
      'status is missing',
      'updated_at is missing',
    ]);
    expect(problems(row({}), row({ id: 2 }))).toEqual([
      'live_state has more than one row: the live state is one row (id 1)',
    ]);
    expect(problems(row({ updated_at: 'yesterday' }))).toEqual(['updated_at must be a time']);
  });

  it('takes an answer that is not a list of rows for the backend answering something else', () => {
    expect(() => checkLiveRow({ message: 'hi' }, '{"message":"hi"}', RULES)).toThrow(BackendDataError);
    expect(() => checkLiveRow(['x'], '["x"]', RULES)).toThrow(BackendDataError);
  });
});

describe('the live row’s cases, which the database’s constraints run too (test/db/live-state-rules.test.ts)', () => {
  const rules = liveRulesOf(loadContent(DEFAULT_CONTENT_PATH));
  const checkCase = (columns: Record<string, string>) => {
    const rows = [row(columns)];
    return checkLiveRow(rows, JSON.stringify(rows), rules);
  };

  it.each(LIVE_ROW_CASES.filter((c) => c.verdict === 'saved'))('takes $name', ({ columns }) => {
    const checked = checkCase(columns);
    expect(checked.live ? [] : checked.problems).toEqual([]);
  });

  it.each(LIVE_ROW_CASES.flatMap((c) => (c.verdict === 'saved' ? [] : [c])))(
    'refuses $name, naming $serverNames',
    ({ columns, serverNames }) => {
      const checked = checkCase(columns);
      expect(checked.live).toBeNull();
      expect(!checked.live && checked.problems[0]).toMatch(new RegExp(`^${serverNames}\\b`));
    },
  );
});
