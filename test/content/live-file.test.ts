import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../scripts/harness/server-process.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import { checkEditorFiles } from '../../server/content/editor-files.ts';
import { formatFinding } from '../../server/content/findings.ts';
import { checkLiveText } from '../../server/content/live-file.ts';
import { liveRulesOfLanguages } from '../../server/content/live-rules.ts';
import { TEXT_LIMITS } from '../../server/content/text-limits.ts';

/**
 * The live file is checked with the content file's rules and words: every problem on its line,
 * named by field, an unknown field with the nearest known one. Server, check and dev loop share it.
 */
const LANGUAGES = ['de', 'en', 'es'];
const check = (text: string) => checkLiveText(text, liveRulesOfLanguages(LANGUAGES));
const lines = (text: string) => check(text).problems.map((finding) => formatFinding('live.json', finding));

const GOOD = `{
  "notice": {
    "level": "warning",
    "text": {
      "de": "Der Beginn verschiebt sich auf 18:15 Uhr.",
      "en": "The start moves to 18:15."
    }
  },
  "status": "EventPostponed"
}
`;

describe('the live file’s check', () => {
  it('takes a notice per language and a status', () => {
    expect(check(GOOD)).toEqual({
      live: {
        notice: {
          level: 'warning',
          text: { de: 'Der Beginn verschiebt sich auf 18:15 Uhr.', en: 'The start moves to 18:15.' },
        },
        status: 'EventPostponed',
        schedule: null,
        stream: null,
        recording: null,
      },
      problems: [],
      warnings: [],
    });
  });

  it('takes the "$schema" an editor checks the file against, and nothing from it', () => {
    const named = GOOD.replace('{\n', '{\n  "$schema": "./live.schema.json",\n');
    expect(check(named)).toEqual(check(GOOD));
  });

  it('takes an empty object, a notice of null and no status as no live changes', () => {
    expect(check('{}\n').live).toEqual({ notice: null, status: null, schedule: null, stream: null, recording: null });
    expect(check('{ "notice": null, "status": null }').live).toEqual({
      notice: null,
      status: null,
      schedule: null,
      stream: null,
      recording: null,
    });
  });

  it('keeps HTML in a notice as the text it is', () => {
    const html = '<b>Neu</b> <script>alert(1)</script> &amp;';
    expect(check(JSON.stringify({ notice: { level: 'info', text: { de: html } } })).live?.notice?.text.de).toBe(html);
  });

  it(`refuses a notice over ${TEXT_LIMITS.notice} characters, with its length and the limit`, () => {
    const atLimit = 'ü'.repeat(TEXT_LIMITS.notice);
    expect(check(JSON.stringify({ notice: { level: 'info', text: { de: atLimit } } })).problems).toEqual([]);
    expect(lines(`{\n  "notice": {\n    "level": "info",\n    "text": { "de": "${atLimit}x" }\n  }\n}`)).toEqual([
      `live.json:4: notice.text.de "${atLimit.slice(0, 77)}..." has ${TEXT_LIMITS.notice + 1} characters, at most ${TEXT_LIMITS.notice}`,
    ]);
  });

  it('refuses an unknown field, naming the one meant, and a field written twice', () => {
    expect(lines('{\n  "notise": null,\n  "status": "EventCancelled",\n  "status": "EventPostponed"\n}')).toEqual([
      'live.json:2: `notise` is not a field; did you mean `notice`?',
      'live.json:4: status "EventPostponed" is written a second time (first on line 3); a field may be written once',
    ]);
  });

  it('refuses an unknown status and an unknown level', () => {
    expect(lines('{\n  "notice": { "level": "alarm", "text": { "de": "x" } },\n  "status": "EventDelayed"\n}')).toEqual(
      [
        'live.json:2: notice.level "alarm" must be one of "info", "warning"',
        'live.json:3: status "EventDelayed" must be one of "EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled", "EventMovedOnline"',
      ],
    );
  });

  it('refuses an empty file and a half-written one', () => {
    expect(lines('')).toEqual(['live.json:1: not valid JSON: the file is empty']);
    expect(lines(GOOD.slice(0, GOOD.indexOf('"en"')))).toEqual([
      'live.json:6: not valid JSON here: a field name in double quotes expected',
    ]);
  });

  it('leaves out a notice for a language not offered, with a warning', () => {
    const checked = check(
      '{\n  "notice": {\n    "level": "info",\n    "text": { "de": "Hallo", "fr": "Salut" }\n  }\n}',
    );
    expect(checked.live?.notice?.text).toEqual({ de: 'Hallo' });
    expect(checked.warnings).toEqual([
      {
        line: 4,
        message: 'notice.text.fr is for a language that the content file does not offer (de, en, es); it is left out',
      },
    ]);
  });

  it('refuses a notice without the default language’s text, which the other pages fall back to', () => {
    expect(lines('{\n  "notice": {\n    "level": "info",\n    "text": { "en": "Hello" }\n  }\n}')).toEqual([
      'live.json:4: notice.text.de is missing: a notice needs a text in the default language, which pages in a language it does not cover show',
    ]);
  });
});

describe('the live file beside the content file', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'live-check-'));
  const contentPath = path.join(folder, 'event.json');
  copyFileSync(DEFAULT_CONTENT_PATH, contentPath);
  const livePath = path.join(folder, 'live.json');
  const files = {
    contentPath,
    contentShown: 'event.json',
    localesDir: LOCALES_DIR,
    localesShown: 'locales',
    livePath,
    liveShown: 'live.json',
  };
  /** `npm run check:content` as an editor runs it in the folder. */
  const checkContent = () =>
    promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(APP_ROOT, 'scripts/check-content.ts'), 'event.json'],
      { cwd: APP_ROOT, env: { ...process.env, INIT_CWD: folder } },
    );
  const BROKEN = '{\n  "status": "EventPostponed",\n  "notice": { "level": "info" }\n}\n';
  const BROKEN_LINE = 'live.json:3: notice.text is missing';

  it('is checked with the content file: a missing one means no live changes', () => {
    const checked = checkEditorFiles({ ...files, livePath: path.join(folder, 'none.json') });
    expect(checked.problems).toEqual([]);
    expect(checked.live).toEqual({ notice: null, status: null, schedule: null, stream: null, recording: null });
  });

  it('is refused with the content file’s words, and by npm run check:content', async () => {
    writeFileSync(livePath, BROKEN);
    expect(checkEditorFiles(files)).toMatchObject({ live: null, problems: [BROKEN_LINE], liveProblems: 1 });
    expect(checkEditorFiles(files).content).not.toBeNull();
    const failure = await checkContent().catch((error: { code: number; stderr: string }) => error);
    expect('code' in failure && failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n')).toEqual([
      BROKEN_LINE,
      '1 problem in live.json: the server would refuse the file and keep the last good live state.',
    ]);

    writeFileSync(livePath, GOOD);
    const passed = await checkContent();
    expect(passed.stdout).toContain('live.json: valid');
  });

  it('is refused by npm run check:content for times the server would refuse, naming the field and its line', async () => {
    writeFileSync(livePath, '{\n  "startTime": "18:30",\n  "endTime": "18:15"\n}\n');
    const failure = await checkContent().catch((error: { code: number; stderr: string }) => error);
    expect('code' in failure && failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n')).toEqual([
      'live.json:3: endTime "18:15" must be later than the start, 18:30',
      '1 problem in live.json: the server would refuse the file and keep the last good live state.',
    ]);
  });

  it('never stops the server at start: a broken one is refused and the page shows no live changes', async () => {
    writeFileSync(livePath, BROKEN);
    const server = await startServer({ CONTENT_PATH: contentPath, LIVE_PATH: livePath });
    try {
      expect(await (await fetch(`${server.url}/api/live`)).json()).toMatchObject({ notice: null, status: null });
      expect(server.logs).toContainEqual(
        expect.objectContaining({
          msg: `live file refused at start; no live changes until it is fixed: ${livePath}:3: notice.text is missing`,
        }),
      );
    } finally {
      await server.stop();
    }
  });

  it('is named in the event team’s guide with the notice’s limit', () => {
    const guide = readFileSync(path.join(APP_ROOT, 'docs/event-team.md'), 'utf8');
    expect(guide).toMatch(
      new RegExp(
        `\\| The live file's notice, in each language \\| \`notice\\.text\\.<code>\` \\| ${TEXT_LIMITS.notice} \\|`,
      ),
    );
  });
});
