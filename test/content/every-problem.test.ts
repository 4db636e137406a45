import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { checkEditorFiles } from '../../server/content/editor-files.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import { runUntilExit } from '../../scripts/harness/server-process.ts';
import { TEXT_LIMITS } from '../../server/content/text-limits.ts';

/**
 * One content file and one folder of translations holding every mistake of the broken-file
 * tables at once: the check lists them all, each once, whatever comes first; the paths are
 * printed as they were named, and the server's refusal counts every one.
 */
const BOM = '\uFEFF';

/** `text` with the first `search` after `after` replaced. */
function at(text: string, search: string, replacement: string, after = ''): string {
  const start = after ? text.indexOf(after) : 0;
  const index = text.indexOf(search, start);
  if (start < 0 || index < 0) throw new Error(`not in the file: ${after} ${search}`);
  return text.slice(0, index) + replacement + text.slice(index + search.length);
}

function lineOf(text: string, needle: string, after = ''): number {
  const index = text.indexOf(needle, after ? text.indexOf(after) : 0);
  if (index < 0) throw new Error(`not in the file: ${needle}`);
  return text.slice(0, index).split('\n').length;
}

const read = (file: string) => readFileSync(file, 'utf8');
const MAP_FORMS =
  'Google Maps’ https://www.google.com/maps/embed?pb=… or https://www.google.com/maps?q=<address>&output=embed, or OpenStreetMap’s https://www.openstreetmap.org/export/embed.html?bbox=…';
const NOT_ASSIGNED = 'is not an ISO 3166-1 country code (two letters such as AT, DE or GB)';

let content = read(DEFAULT_CONTENT_PATH);
content = at(content, '"languages": ["de", "en", "es"]', '"languages": ["de", "en", "es",]');
content = at(content, '"date": "2027-03-18",', '"date": "2027-03-18",\n    "date": "2027-02-30",');
content = at(content, '"Europe/Vienna"', '"America/New_Yrok"');
content = at(
  content,
  '"status": "EventScheduled",',
  '"status": "EventScheduled",\n    "recordingURL": "https://video.example.com/replay",',
);
content = content.replace(/"embedUrl": "[^"]*"/, '"embedUrl": "https://www.youtube.com/watch?v=M7lc1UVf-VE"');
content = at(content, '"countryCode": "DE"', '"countryCode": "UK"');
content = at(
  content,
  '"https://www.google.com/maps?q=Avenida+del+Mar+12,+29602+Marbella&output=embed"',
  '"https://www.google.com/maps/search/?api=1&query=Avenida+del+Mar+12"',
);
content = at(content, '"width": 960', '"widht": 960', '"id": "marbella"');
const LONG_STUDIO = `Studio Wien ${'W'.repeat(TEXT_LIMITS.studioName - 11)}`;
content = at(content, '"name": "Studio Wien"', `"name": "${LONG_STUDIO}"`);
content = at(content, '"countryCode": "AT"', '"countryCode": "XK"');
content = at(content, '"countryCode": "CH"', '"countryCode": "ZZ"');
content = at(content, '"countryCode": "AT"', '"countryCode": "EU"', '"company"');
content = at(
  content,
  '"https://www.google.com/maps?q=Vorgartenstra%C3%9Fe+206,+1020+Wien&output=embed"',
  '"https://www.openstreetmap.org/#map=17/48.2316/16.4127"',
);

let en = read(path.join(LOCALES_DIR, 'en/translation.json'));
en = at(en, '"product": "Horizon Live 2027"', '"product": ""');
en = at(
  en,
  '"subtitle": "Please choose your preferred language"',
  '"subtitle": "Please choose your preferred language",',
);
en = at(en, '"cta": "Watch the live stream"', '"cta": "Watch the live stream",\n    "cta": "  "');
const LONG_TAGLINE = 'One evening. '.repeat(10);
en = at(en, '"tagline": "One evening. Four studios. One shared broadcast."', `"tagline": "${LONG_TAGLINE}"`);
const es = read(path.join(LOCALES_DIR, 'es/translation.json')).replace(/("seconds_other": "[^"]*")/, '$1,');

const folder = mkdtempSync(path.join(tmpdir(), 'every-problem-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const contentPath = path.join(folder, 'event.json');
// Not "locales": each translation problem must be told under the folder's own name.
const localesDir = path.join(folder, 'site-locales');
writeFileSync(contentPath, BOM + content);
mkdirSync(localesDir);
cpSync(LOCALES_DIR, localesDir, { recursive: true });
writeFileSync(path.join(localesDir, 'en/translation.json'), en);
writeFileSync(path.join(localesDir, 'es/translation.json'), es);
writeFileSync(path.join(localesDir, 'de/translation.json'), BOM + read(path.join(LOCALES_DIR, 'de/translation.json')));

function expectedProblems(contentShown: string, localesShown: string): string[] {
  const c = (line: number, message: string) => `${contentShown}:${line}: ${message}`;
  const locale = (language: string, line: number, message: string) =>
    `${localesShown}/${language}/translation.json:${line}: ${message}`;
  const secondDate = lineOf(content, '"date": "2027-02-30"');
  return [
    c(lineOf(content, '"languages"'), 'not valid JSON here: a trailing comma after the last item (JSON allows none)'),
    c(
      secondDate,
      `event.date "2027-02-30" is written a second time (first on line ${lineOf(content, '"date"')}); a field may be written once`,
    ),
    c(secondDate, 'event.date "2027-02-30" is not a date in the calendar'),
    c(
      lineOf(content, '"timeZone"'),
      'event.timeZone "America/New_Yrok" is not an IANA time zone; did you mean America/New_York?',
    ),
    c(lineOf(content, '"recordingURL"'), '`event.recordingURL` is not a field; did you mean `event.recordingUrl`?'),
    c(
      lineOf(content, '"embedUrl"'),
      'video.embedUrl "https://www.youtube.com/watch?v=M7lc1UVf-VE" is a YouTube page, which YouTube does not let other sites frame; did you mean https://www.youtube-nocookie.com/embed/M7lc1UVf-VE?controls=0&rel=0&playsinline=1?',
    ),
    c(lineOf(content, '"UK"'), 'studios.0.countryCode "UK" is not an ISO 3166-1 country code; did you mean GB?'),
    c(
      lineOf(content, '"mapEmbedUrl"', '"id": "marbella"'),
      `studios.1.mapEmbedUrl "https://www.google.com/maps/search/?api=1&query=Avenida+del+Mar+12" is not a map address its provider lets other sites frame (use ${MAP_FORMS}); did you mean https://www.google.com/maps?q=Avenida+del+Mar+12&output=embed?`,
    ),
    c(lineOf(content, '"widht"'), '`studios.1.picture.widht` is not a field; did you mean `studios.1.picture.width`?'),
    c(
      lineOf(content, LONG_STUDIO),
      `studios.2.name "${LONG_STUDIO}" has ${TEXT_LIMITS.studioName + 1} characters, at most ${TEXT_LIMITS.studioName}`,
    ),
    c(lineOf(content, '"XK"'), `studios.2.countryCode "XK" ${NOT_ASSIGNED}`),
    c(
      lineOf(content, '"mapEmbedUrl"', '"id": "vienna"'),
      `studios.2.mapEmbedUrl "https://www.openstreetmap.org/#map=17/48.2316/16.4127" is not a map address its provider lets other sites frame (use ${MAP_FORMS})`,
    ),
    c(lineOf(content, '"ZZ"'), `studios.3.countryCode "ZZ" ${NOT_ASSIGNED}`),
    c(lineOf(content, '"EU"'), `company.countryCode "EU" ${NOT_ASSIGNED}`),
    locale('en', lineOf(en, '"product"'), 'product is empty: every text needs words'),
    locale(
      'en',
      lineOf(en, '"subtitle"'),
      'not valid JSON here: a trailing comma after the last field (JSON allows none)',
    ),
    locale(
      'en',
      lineOf(en, '"cta": "  "'),
      `hero.cta "  " is written a second time (first on line ${lineOf(en, '"cta"')}); a field may be written once`,
    ),
    locale('en', lineOf(en, '"cta": "  "'), 'hero.cta is empty: every text needs words'),
    locale(
      'es',
      lineOf(es, '"seconds_other"'),
      'not valid JSON here: a trailing comma after the last field (JSON allows none)',
    ),
    locale(
      'en',
      lineOf(en, '"tagline"'),
      `hero.tagline has ${LONG_TAGLINE.length} characters, at most ${TEXT_LIMITS.tagline}`,
    ),
  ];
}

const BOM_WARNING = 'warning: the file starts with a byte-order mark, which is ignored (save it as UTF-8 without BOM)';

describe('a content file and translations holding every mistake at once', () => {
  it('are refused with every problem, each once, and the byte-order marks as warnings', () => {
    const checked = checkEditorFiles({
      contentPath,
      contentShown: 'event.json',
      localesDir,
      localesShown: 'site-locales',
      livePath: path.join(folder, 'live.json'),
      liveShown: 'live.json',
    });
    expect(checked.content).toBeNull();
    expect(checked.problems).toEqual(expectedProblems('event.json', 'site-locales'));
    expect(checked.warnings).toEqual([
      `event.json:1: ${BOM_WARNING}`,
      `site-locales/de/translation.json:1: ${BOM_WARNING}`,
    ]);
  });

  it('are refused by npm run check:content, with LOCALES_PATH printed as it was given', async () => {
    const failure = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(APP_ROOT, 'scripts/check-content.ts'), 'event.json'],
      { cwd: APP_ROOT, env: { ...process.env, INIT_CWD: folder, LOCALES_PATH: localesDir } },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect('code' in failure && failure.code).toBe(1);
    const problems = expectedProblems('event.json', localesDir);
    expect(failure.stderr.trim().split('\n')).toEqual([
      ...problems,
      `${problems.length} problems: the server would not start.`,
    ]);
    expect(failure.stdout).toContain(`${localesDir}/de/translation.json:1: ${BOM_WARNING}`);
  });

  it('stop the server with the first problem and how many more, translations counted', async () => {
    const exited = await runUntilExit({ CONTENT_PATH: contentPath, LOCALES_PATH: localesDir });
    expect(exited.code).toBe(1);
    const [first, ...rest] = expectedProblems(contentPath, localesDir);
    expect(exited.stderr.trim()).toBe(
      `Cannot start: ${first} (and ${rest.length} more problems; npm run check:content lists them all)`,
    );
  });
});
