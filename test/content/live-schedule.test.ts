import { describe, expect, it } from 'vitest';
import { checkLiveRow } from '../../server/backend/live-row.ts';
import { formatFinding } from '../../server/content/findings.ts';
import { checkLiveText } from '../../server/content/live-file.ts';
import { liveRulesOf, liveRulesOfLanguages } from '../../server/content/live-rules.ts';
import { EMPTY_LIVE_ROW } from '../../scripts/harness/fake-supabase.ts';
import { editedContent } from '../helpers/content-file.ts';
import { moveEvent } from '../helpers/event-times.ts';

/**
 * The live state's times are checked against the content file's day: a start or an end on
 * another day, or an end not after the start, is refused with the field and its line, and every
 * other problem of the same file at once.
 */
const content = editedContent((file) =>
  moveEvent(file, { date: '2027-03-18', startTime: '18:00', endTime: '21:30', timeZone: 'Europe/Vienna' }),
);
const rules = liveRulesOf(content);
const VIENNA_18 = Date.UTC(2027, 2, 18, 17, 0);
const MINUTE = 60_000;

const check = (live: Record<string, unknown>) => checkLiveText(JSON.stringify(live, null, 2), rules);
const problems = (live: Record<string, unknown>) =>
  check(live).problems.map((finding) => formatFinding('live.json', finding));

describe('the live file’s times', () => {
  it('take a delay, on the event’s clock and day: the new start, the planned end, the times as each language shows them', () => {
    const { schedule } = check({ startTime: '18:15' }).live!;
    // As the content file would show the same times.
    const planned = editedContent((file) =>
      moveEvent(file, {
        date: '2027-03-18',
        startTime: '18:15',
        endTime: '21:30',
        timeZone: 'Europe/Vienna',
      }),
    );
    // Every segment a quarter of an hour later: the last one now at the end, so not on air.
    const programme = ['18:15', '18:30', '19:10', '19:55', '20:15', '21:00', '21:30'];
    expect(schedule).toEqual({
      start: VIENNA_18 + 15 * MINUTE,
      end: VIENNA_18 + 210 * MINUTE,
      utcOffsetMinutes: { start: 60, end: 60 },
      display: Object.fromEntries(
        Object.entries(planned.public.eventDisplay).map(([language, display]) => [language, { ...display, programme }]),
      ),
    });
    expect(schedule!.display.en!.time).toBe('18:15–21:30 CET');
  });

  it('take a longer broadcast, an early end and a time with the event’s own date', () => {
    expect(check({ endTime: '22:00' }).live!.schedule).toMatchObject({
      start: VIENNA_18,
      end: VIENNA_18 + 240 * MINUTE,
    });
    expect(check({ endTime: '2027-03-18T19:42' }).live!.schedule).toMatchObject({ end: VIENNA_18 + 102 * MINUTE });
  });

  it('move nothing when they are the plan’s, or left out, or null', () => {
    expect(check({ startTime: '18:00', endTime: '21:30' }).live!.schedule).toBeNull();
    expect(check({ startTime: null, endTime: null }).live!.schedule).toBeNull();
    expect(check({}).live!.schedule).toBeNull();
  });

  it('refuse a start or an end on another day, an end before the start, and a time that is none, each on its line', () => {
    expect(problems({ startTime: '2027-03-19T18:00' })).toEqual([
      'live.json:2: startTime "2027-03-19T18:00" is on another day than the event (event.date "2027-03-18" in the content file): the live state moves the times within the day; a new day is a change of the content file',
    ]);
    expect(problems({ startTime: '18:30', endTime: '18:15' })).toEqual([
      'live.json:3: endTime "18:15" must be later than the start, 18:30',
    ]);
    expect(problems({ endTime: '17:45' })).toEqual([
      'live.json:2: endTime "17:45" must be later than the start, 18:00 (the content file’s event.startTime)',
    ]);
    expect(problems({ startTime: '21:30' })).toEqual([
      'live.json:2: startTime "21:30" must be earlier than the end, 21:30 (the content file’s event.endTime)',
    ]);
    expect(problems({ startTime: '6 pm', endTime: '24:00' })).toEqual([
      'live.json:2: startTime "6 pm" must be a time like 18:15 on the event’s clock (or with its date, like 2027-03-18T18:15)',
      'live.json:3: endTime "24:00" must be a time like 18:15 on the event’s clock (or with its date, like 2027-03-18T18:15)',
    ]);
  });

  it('are refused with the notice’s problems, all at once', () => {
    expect(problems({ notice: { level: 'info', text: { en: 'Later' } }, endTime: '2027-03-17T20:00' })).toEqual([
      'live.json:4: notice.text.de is missing: a notice needs a text in the default language, which pages in a language it does not cover show',
      'live.json:8: endTime "2027-03-17T20:00" is on another day than the event (event.date "2027-03-18" in the content file): the live state moves the times within the day; a new day is a change of the content file',
    ]);
  });

  it('are checked for their form alone while the content file has problems of its own', () => {
    expect(checkLiveText('{ "startTime": "18:15" }', liveRulesOfLanguages(['de'])).live).toMatchObject({
      schedule: null,
    });
    expect(checkLiveText('{ "startTime": "late" }', liveRulesOfLanguages(['de'])).live).toBeNull();
  });
});

describe('the live row’s times', () => {
  const checkRow = (columns: Record<string, unknown>) => {
    const rows = [{ ...EMPTY_LIVE_ROW, ...columns }];
    return checkLiveRow(rows, JSON.stringify(rows), rules);
  };

  it('are its start_time and end_time, an emptied one the content file’s', () => {
    const checked = checkRow({ start_time: '18:15', end_time: '' });
    expect(checked.live?.schedule).toMatchObject({ start: VIENNA_18 + 15 * MINUTE, end: VIENNA_18 + 210 * MINUTE });
  });

  it('are none where the columns are not there (a table made before their migration)', () => {
    const { start_time: _start, end_time: _end, ...older } = { ...EMPTY_LIVE_ROW };
    expect(checkLiveRow([older], JSON.stringify([older]), rules).live).toMatchObject({ schedule: null });
  });

  it('are refused naming the column', () => {
    const checked = checkRow({ start_time: '19:00', end_time: '18:30' });
    expect(checked.live).toBeNull();
    expect(!checked.live && checked.problems).toEqual(['end_time "18:30" must be later than the start, 19:00']);
  });
});
