import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLiveRow } from '../../server/backend/live-row.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { formatFinding } from '../../server/content/findings.ts';
import { checkLiveText, NO_LIVE_CHANGES } from '../../server/content/live-file.ts';
import { liveRulesOf, liveRulesOfLanguages } from '../../server/content/live-rules.ts';
import { frameOrigins } from '../../server/content/frame-origins.ts';
import { checkContentText, loadContent } from '../../server/content/site-content.ts';
import { withVersion } from '../../server/live/live-version.ts';
import { EMPTY_LIVE_ROW } from '../../scripts/harness/fake-supabase.ts';
import { editedContent } from '../helpers/content-file.ts';

/**
 * The recording the event team names on the day: a player as a backup stream's (the forms of the
 * content file's video, from an origin the page lets frames come from), and where it was trimmed,
 * the moment of the broadcast it begins at. The live file and the row alike.
 */
const content = loadContent(DEFAULT_CONTENT_PATH);
const RULES = liveRulesOf(content);
const RECORDING = 'https://www.youtube-nocookie.com/embed/recording01';

const check = (text: string) => checkLiveText(text, RULES);
const lines = (text: string) => check(text).problems.map((finding) => formatFinding('live.json', finding));
const fileWith = (fields: Record<string, unknown>) =>
  `{\n${Object.entries(fields)
    .map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`)
    .join(',\n')}\n}\n`;
const checkRow = (columns: Record<string, unknown>) => {
  const rows = [{ ...EMPTY_LIVE_ROW, ...columns }];
  return checkLiveRow(rows, JSON.stringify(rows), RULES);
};

describe('the recording in the live file', () => {
  it('is a player formed as the content’s video, with the moment of the broadcast it begins at in seconds', () => {
    const checked = check(fileWith({ recording: { embedUrl: RECORDING, beginsAt: '0:04:30' } }));
    expect(checked.problems).toEqual([]);
    expect(checked.live?.recording).toEqual({
      embedUrl: RECORDING,
      watchUrl: 'https://www.youtube.com/watch?v=recording01',
      provider: content.public.video.provider,
      poster: content.public.video.poster,
      beginsAtSeconds: 270,
    });
  });

  it.each([
    ['4:30', 270],
    ['04:30', 270],
    ['1:02:03', 3723],
    [' 0:00:09 ', 9],
  ])('reads a beginning written as %j as %i s', (beginsAt, seconds) => {
    expect(check(fileWith({ recording: { embedUrl: RECORDING, beginsAt } })).live?.recording?.beginsAtSeconds).toBe(
      seconds,
    );
  });

  it('begins at the broadcast’s start without a beginning, and is none when removed or null', () => {
    expect(check(fileWith({ recording: { embedUrl: RECORDING } })).live?.recording?.beginsAtSeconds).toBe(0);
    expect(check('{}').live?.recording).toBeNull();
    expect(check('{ "recording": null }').live?.recording).toBeNull();
  });

  it('refuses a beginning that is not a moment, or not within the broadcast as the day’s times have it, on its line', () => {
    expect(lines(fileWith({ recording: { embedUrl: RECORDING, beginsAt: '4 min' } }))).toEqual([
      'live.json:2: recording.beginsAt "4 min" must be a moment of the broadcast like 0:04:30 (hours, minutes, seconds) or 4:30',
    ]);
    // The sample's broadcast is 18:00 to 21:30; an early end at 19:00 makes it an hour long.
    expect(check(fileWith({ recording: { embedUrl: RECORDING, beginsAt: '3:29:59' } })).problems).toEqual([]);
    expect(lines(fileWith({ recording: { embedUrl: RECORDING, beginsAt: '3:30:00' } }))).toEqual([
      'live.json:2: recording.beginsAt "3:30:00" is not within the broadcast, which is 3:30:00 long: the recording begins at a moment of the broadcast',
    ]);
    expect(lines(fileWith({ endTime: '19:00', recording: { embedUrl: RECORDING, beginsAt: '1:00:00' } }))).toEqual([
      'live.json:3: recording.beginsAt "1:00:00" is not within the broadcast, which is 1:00:00 long: the recording begins at a moment of the broadcast',
    ]);
  });

  it('refuses a player the page could not frame, as a backup stream’s, and a recording without its address', () => {
    expect(lines(fileWith({ recording: { embedUrl: 'https://player.vimeo.com/video/76979871' } }))[0]).toContain(
      'live.json:2: recording.embedUrl "https://player.vimeo.com/video/76979871" is on https://player.vimeo.com, which the page’s Content-Security-Policy does not let frames come from',
    );
    expect(lines(fileWith({ recording: { embedUrl: 'https://www.youtube.com/watch?v=recording01' } }))).toHaveLength(1);
    expect(lines(fileWith({ recording: { beginsAt: '0:04:30' } }))).toHaveLength(1);
  });

  it('is left out with a warning while the content file’s frames are unknown', () => {
    const checked = checkLiveText(fileWith({ recording: { embedUrl: RECORDING } }), liveRulesOfLanguages(['de']));
    expect(checked.problems).toEqual([]);
    expect(checked.live?.recording).toBeNull();
    expect(checked.warnings).toHaveLength(1);
  });
});

describe('the recording in the live row', () => {
  it('is the columns recording_embed_url and recording_begins_at, formed as the file’s', () => {
    expect(checkRow({ recording_embed_url: RECORDING, recording_begins_at: '4:30' }).live?.recording).toEqual(
      check(fileWith({ recording: { embedUrl: RECORDING, beginsAt: '0:04:30' } })).live?.recording,
    );
  });

  it('is none with both columns blank or not there (a table made before them)', () => {
    expect(checkRow({ recording_embed_url: ' ', recording_begins_at: '' }).live?.recording).toBeNull();
    expect(checkRow({}).live?.recording).toBeNull();
  });

  it('names the column of each problem', () => {
    const problems = (columns: Record<string, unknown>) => {
      const checked = checkRow(columns);
      return checked.live ? [] : checked.problems;
    };
    expect(problems({ recording_begins_at: '0:04:30' })[0]).toMatch(/^recording_embed_url /);
    expect(problems({ recording_embed_url: RECORDING, recording_begins_at: '9:00:00' })[0]).toMatch(
      /^recording_begins_at "9:00:00" is not within the broadcast/,
    );
  });
});

describe('the live state’s version with a recording', () => {
  const at = new Date('2027-03-18T22:00:00.000Z');
  const recording = check(fileWith({ recording: { embedUrl: RECORDING } })).live!.recording;

  it('changes with the recording and its beginning, and back with its removal', () => {
    const none = withVersion(NO_LIVE_CHANGES, at);
    const named = withVersion({ ...NO_LIVE_CHANGES, recording }, at);
    const trimmed = withVersion({ ...NO_LIVE_CHANGES, recording: { ...recording!, beginsAtSeconds: 270 } }, at);
    expect(new Set([none.version, named.version, trimmed.version]).size).toBe(3);
    expect(named.recording).toEqual(recording);
  });

  it('is told from a backup stream at the same address', () => {
    const { beginsAtSeconds: _, ...player } = recording!;
    expect(withVersion({ ...NO_LIVE_CHANGES, stream: player }, at).version).not.toBe(
      withVersion({ ...NO_LIVE_CHANGES, recording }, at).version,
    );
  });
});

describe('the recording in the content file, named ahead', () => {
  const named = (recording: Record<string, unknown>) =>
    editedContent((file) => {
      file.video.recording = recording;
    });
  const text = (recording: Record<string, unknown>, edit?: (file: Record<string, any>) => void) => {
    const file = JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as Record<string, any>;
    file.video.recording = recording;
    edit?.(file);
    return JSON.stringify(file, null, 2);
  };
  const problemsOf = (recording: Record<string, unknown>, edit?: (file: Record<string, any>) => void) =>
    checkContentText(text(recording, edit), Date.parse('2026-11-25T00:00:00Z')).problems.map(({ message }) => message);

  it('is formed as the live state’s, its origin one the page lets frames come from', () => {
    const site = named({ embedUrl: 'https://player.vimeo.com/video/76979871', beginsAt: '2:00' });
    expect(site.public.recording).toEqual({
      ...content.public.video,
      embedUrl: 'https://player.vimeo.com/video/76979871',
      watchUrl: 'https://vimeo.com/76979871',
      beginsAtSeconds: 120,
    });
    expect(frameOrigins(site.raw)).toContain('https://player.vimeo.com');
    // So the live state may name a recording there too.
    expect(
      checkLiveText(fileWith({ recording: { embedUrl: 'https://player.vimeo.com/video/1' } }), liveRulesOf(site))
        .problems,
    ).toEqual([]);
    expect(content.public.recording).toBeNull();
  });

  it('is refused in a form the video’s address refuses, or beginning beyond the broadcast', () => {
    expect(problemsOf({ embedUrl: 'https://www.youtube.com/watch?v=recording01' })).toHaveLength(1);
    expect(problemsOf({ embedUrl: RECORDING, beginsAt: '3:30:00' })).toEqual([
      'video.recording.beginsAt "3:30:00" is not within the broadcast, from event.startTime to event.endTime: the recording begins at a moment of the broadcast',
    ]);
    expect(problemsOf({ embedUrl: RECORDING, beginsAt: '3:29:59' })).toEqual([]);
  });

  it('is held to the broadcast as long as it is in its zone, on a day the clocks change', () => {
    // Vienna's clocks go from 02:00 to 03:00 on 2027-03-28: 01:00 to 04:00 is two hours long.
    const springForward = (file: Record<string, any>) => {
      Object.assign(file.event, { date: '2027-03-28', startTime: '01:00', endTime: '04:00' });
      delete file.programme;
    };
    expect(problemsOf({ embedUrl: RECORDING, beginsAt: '1:59:59' }, springForward)).toEqual([]);
    expect(problemsOf({ embedUrl: RECORDING, beginsAt: '2:30:00' }, springForward)).toEqual([
      'video.recording.beginsAt "2:30:00" is not within the broadcast, from event.startTime to event.endTime: the recording begins at a moment of the broadcast',
    ]);
  });
});
