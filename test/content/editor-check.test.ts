import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { formatFinding } from '../../server/content/findings.ts';
import { contentJsonSchema } from '../../server/content/json-schema.ts';
import { checkContentText } from '../../server/content/site-content.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { checkTranslations } from '../../server/content/translation-check.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';

/**
 * The content check as an editor meets it: one broken file per rule, each with the exact line
 * `npm run check:content` prints for it; and the editor's JSON Schema refusing the same files
 * wherever a JSON Schema can say so.
 */
const SHIPPED = readFileSync(DEFAULT_CONTENT_PATH, 'utf8');
const FILE = 'content/event.json';
/** Before the sample event: nothing has passed yet. */
const NOW = Date.parse('2026-11-25T00:00:00Z');

/** The 1-based line of the first occurrence of `needle` (after `after`, when given). */
function lineOf(text: string, needle: string, after = ''): number {
  const start = after ? text.indexOf(after) : 0;
  const index = text.indexOf(needle, start);
  if (start < 0 || index < 0) throw new Error(`not in the file: ${after} ${needle}`);
  return text.slice(0, index).split('\n').length;
}

function replaced(search: string, replacement: string, after = ''): string {
  const start = after ? SHIPPED.indexOf(after) : 0;
  const index = SHIPPED.indexOf(search, start);
  if (index < 0) throw new Error(`not in the file: ${search}`);
  return SHIPPED.slice(0, index) + replacement + SHIPPED.slice(index + search.length);
}

function edited(edit: (content: any) => void): string {
  const content = JSON.parse(SHIPPED);
  edit(content);
  return `${JSON.stringify(content, null, 2)}\n`;
}

const studioBlock = (index: number) => `"id": "${JSON.parse(SHIPPED).studios[index].id}"`;

interface Case {
  rule: string;
  text: string;
  line: (text: string) => string;
  /** Whether the editor's JSON Schema can refuse it too (unique ids and end after start are the check's alone). */
  schema: boolean;
}

const CASES: Case[] = [
  {
    rule: 'a day February does not have',
    text: replaced('"date": "2027-03-18"', '"date": "2027-02-30"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "2027-02-30" is not a date in the calendar`,
    schema: true,
  },
  {
    rule: '29 February of a common year',
    text: replaced('"date": "2027-03-18"', '"date": "2027-02-29"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "2027-02-29" is not a date in the calendar`,
    schema: true,
  },
  {
    rule: '31 April',
    text: replaced('"date": "2027-03-18"', '"date": "2027-04-31"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "2027-04-31" is not a date in the calendar`,
    schema: true,
  },
  {
    rule: 'a date written another way',
    text: replaced('"date": "2027-03-18"', '"date": "18.03.2027"'),
    line: (t) => `${FILE}:${lineOf(t, '"date"')}: event.date "18.03.2027" must be a date like 2027-03-18`,
    schema: true,
  },
  {
    rule: 'the hour 24',
    text: replaced('"startTime": "18:00"', '"startTime": "24:00"'),
    line: (t) => `${FILE}:${lineOf(t, '"startTime"')}: event.startTime "24:00" is not a time of day (00:00 to 23:59)`,
    schema: true,
  },
  {
    rule: 'the minute 60',
    text: replaced('"startTime": "18:00"', '"startTime": "18:60"'),
    line: (t) => `${FILE}:${lineOf(t, '"startTime"')}: event.startTime "18:60" is not a time of day (00:00 to 23:59)`,
    schema: true,
  },
  {
    rule: 'a misspelt time zone',
    text: replaced('"timeZone": "Europe/Vienna"', '"timeZone": "Europe/Viena"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"timeZone"')}: event.timeZone "Europe/Viena" is not an IANA time zone such as Europe/Vienna`,
    // A pattern cannot know which zones exist.
    schema: false,
  },
  {
    rule: 'an offset instead of a zone',
    text: replaced('"timeZone": "Europe/Vienna"', '"timeZone": "+01:00"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"timeZone"')}: event.timeZone "+01:00" is not an IANA time zone such as Europe/Vienna`,
    schema: true,
  },
  {
    rule: 'an end before the start',
    text: replaced('"endTime": "21:30"', '"endTime": "17:00"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"endTime"')}: event.endTime "17:00" must be later than event.startTime "18:00" (an event ends by midnight of its date)`,
    schema: false,
  },
  {
    rule: 'an end at the start',
    text: replaced('"endTime": "21:30"', '"endTime": "18:00"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"endTime"')}: event.endTime "18:00" must be later than event.startTime "18:00" (an event ends by midnight of its date)`,
    schema: false,
  },
  {
    rule: 'a misspelt field',
    text: replaced('"startTime"', '"startTim"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"startTim"')}: \`event.startTim\` is not a field; did you mean \`event.startTime\`?`,
    schema: true,
  },
  {
    rule: 'a misspelt field nested in a studio',
    text: replaced('"postalCode"', '"postcode"', studioBlock(2)),
    line: (t) =>
      `${FILE}:${lineOf(t, '"postcode"')}: \`studios.2.postcode\` is not a field; did you mean \`studios.2.postalCode\`?`,
    schema: true,
  },
  {
    rule: 'three studios',
    text: edited((c) => {
      c.studios.pop();
      c.heroSlides.pop();
    }),
    line: (t) => `${FILE}:${lineOf(t, '"studios"')}: studios lists 3 studios; the page has exactly 4`,
    schema: true,
  },
  {
    rule: 'five studios',
    text: edited((c) => c.studios.push({ ...c.studios[0], id: 'berlin' })),
    line: (t) => `${FILE}:${lineOf(t, '"studios"')}: studios lists 5 studios; the page has exactly 4`,
    schema: true,
  },
  {
    rule: 'two studios with one id',
    text: edited((c) => {
      c.studios[3].id = c.studios[1].id;
      c.heroSlides[3].studio = c.studios[1].id;
    }),
    line: (t) =>
      `${FILE}:${lineOf(t, studioBlock(1), studioBlock(2))}: studios.3.id "${JSON.parse(SHIPPED).studios[1].id}" is already the id of studios.1`,
    schema: false,
  },
  {
    rule: 'a hero slide that names its studio by name',
    text: replaced('"studio": "vienna"', '"studio": "Studio Wien"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"Studio Wien"')}: heroSlides.2.studio "Studio Wien" names a studio, not its id; did you mean \`vienna\`?`,
    schema: true,
  },
  {
    rule: 'a hero slide that names its studio by its city in another language',
    text: replaced('"studio": "zurich"', '"studio": "Zurich"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"Zurich"')}: heroSlides.3.studio "Zurich" names a studio, not its id; did you mean \`zurich\`?`,
    schema: true,
  },
  {
    rule: 'a hero slide with a misspelt studio id',
    text: replaced('"studio": "marbella"', '"studio": "marbela"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"marbela"')}: heroSlides.1.studio "marbela" is not the id of a studio; did you mean \`marbella\`?`,
    // A pattern cannot know which ids the studios have.
    schema: false,
  },
  {
    rule: 'a hero slide of a studio that is not listed',
    text: replaced('"studio": "munich"', '"studio": "berlin"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"berlin"')}: heroSlides.0.studio "berlin" is not the id of a studio; the ids are munich, marbella, vienna, zurich`,
    schema: false,
  },
  {
    rule: 'a studio renamed by its id, which its slide still names',
    text: replaced(studioBlock(2), '"id": "wien"'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"studio": "vienna"')}: heroSlides.2.studio "vienna" names a studio, not its id; did you mean \`wien\`?`,
    schema: false,
  },
  {
    rule: 'an embed address that is not https',
    text: replaced('"embedUrl": "https://', '"embedUrl": "http://'),
    line: (t) =>
      `${FILE}:${lineOf(t, '"embedUrl"')}: video.embedUrl "${JSON.parse(t).video.embedUrl.slice(0, 77)}..." must be an absolute https:// address`,
    schema: true,
  },
  {
    rule: 'a link without its scheme',
    text: edited((c) => (c.studios[1].siteUrl = 'studio-marbella.example.com')),
    line: (t) =>
      `${FILE}:${lineOf(t, '"siteUrl"', studioBlock(1))}: studios.1.siteUrl "studio-marbella.example.com" must be an absolute https:// address`,
    schema: true,
  },
  {
    rule: 'a file that is not JSON',
    text: replaced('"endTime": "21:30",', '"endTime": "21:30",,'),
    line: (t) => `${FILE}:${lineOf(t, ',,')}: not valid JSON here: property name expected`,
    schema: false,
  },
];

function validateWithSchema(text: string): boolean {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(contentJsonSchema())(JSON.parse(text));
}

describe('the content check, one broken file per rule', () => {
  it('finds nothing wrong with the shipped file', () => {
    expect(checkContentText(SHIPPED, NOW).problems).toEqual([]);
    expect(validateWithSchema(SHIPPED)).toBe(true);
  });

  it.each(CASES.map((c) => [c.rule, c] as const))('%s', (_rule, { text, line, schema }) => {
    const lines = checkContentText(text, NOW).problems.map((finding) => formatFinding(FILE, finding));
    expect(lines).toEqual([line(text)]);
    if (schema) expect(validateWithSchema(text), 'the JSON Schema lets it through').toBe(false);
  });

  it('warns, without refusing, when the date has passed and where sample values remain', () => {
    const after = Date.parse('2027-03-19T00:00:00Z');
    const checked = checkContentText(SHIPPED, after);
    expect(checked.problems).toEqual([]);
    const lines = checked.warnings.map((finding) => formatFinding(FILE, finding));
    expect(lines).toContain(
      `${FILE}:${lineOf(SHIPPED, '"date"')}: event.date "2027-03-18" has passed: the page shows the broadcast as over`,
    );
    expect(lines).toContain(
      `${FILE}:${lineOf(SHIPPED, '"placeholder"', '"video"')}: video still holds sample values (its "placeholder" note)`,
    );
    expect(checkContentText(SHIPPED, NOW).warnings.map((w) => w.message)).not.toContainEqual(
      expect.stringContaining('has passed'),
    );
  });
});

describe('npm run check:content', () => {
  const run = promisify(execFile);
  const folder = mkdtempSync(path.join(tmpdir(), 'editor-check-'));

  it('prints every problem, with the path as given, and exits 1', async () => {
    const text = replaced('"date": "2027-03-18"', '"date": "2027-02-30"').replace('"startTime"', '"startTim"');
    writeFileSync(path.join(folder, 'event.json'), text);
    const failure = await run(
      process.execPath,
      ['--import', 'tsx', path.join(APP_ROOT, 'scripts/check-content.ts'), 'event.json'],
      {
        // As npm runs it: in the project, told where the command was typed.
        cwd: APP_ROOT,
        env: { ...process.env, INIT_CWD: folder },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failure && failure.code).toBe(1);
    expect(failure.stderr.trim().split('\n')).toEqual([
      `event.json:${lineOf(text, '"date"')}: event.date "2027-02-30" is not a date in the calendar`,
      `event.json:${lineOf(text, '"startTim"')}: \`event.startTim\` is not a field; did you mean \`event.startTime\`?`,
      '2 problems: the server would not start.',
    ]);
  });
});

describe('the translation check, one broken file per rule', () => {
  const de = readFileSync(path.join(LOCALES_DIR, 'de/translation.json'), 'utf8');
  const en = readFileSync(path.join(LOCALES_DIR, 'en/translation.json'), 'utf8');
  const es = readFileSync(path.join(LOCALES_DIR, 'es/translation.json'), 'utf8');

  function checkWith(language: 'de' | 'en' | 'es', text: string): string[] {
    const dir = mkdtempSync(path.join(tmpdir(), 'locales-'));
    cpSync(LOCALES_DIR, dir, { recursive: true });
    writeFileSync(path.join(dir, language, 'translation.json'), text);
    return checkTranslations(dir, LANGUAGES, 'locales');
  }
  const editedJson = (text: string, edit: (t: any) => void) => {
    const json = JSON.parse(text);
    edit(json);
    return `${JSON.stringify(json, null, 2)}\n`;
  };

  it('finds nothing wrong with the shipped files', () => {
    expect(checkTranslations(LOCALES_DIR, LANGUAGES, 'locales')).toEqual([]);
    expect(de).toBeTruthy();
  });

  it('a key the default has and a translation lacks', () => {
    const text = editedJson(en, (t) => delete t.hero.tagline);
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"hero"')}: hero.tagline is missing (de has it)`,
    ]);
  });

  it('a key the default lacks', () => {
    const text = en.replace('"tagline"', '"tagLine"');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"hero"')}: hero.tagline is missing (de has it)`,
      `locales/en/translation.json:${lineOf(text, '"tagLine"')}: hero.tagLine is not a key of de; did you mean hero.tagline?`,
    ]);
  });

  it('a plural form the language does not have, and one it has', () => {
    const few = editedJson(en, (t) => (t.countdown.days_few = '{{count}} days'));
    expect(checkWith('en', few)).toEqual([
      `locales/en/translation.json:${lineOf(few, '"days_few"')}: countdown.days_few is not a plural form of en (its forms: one, other)`,
    ]);
    // Spanish has a "many" form (un millón de días): allowed, not required.
    const many = editedJson(es, (t) => (t.countdown.days_many = '{{count}} de días'));
    expect(checkWith('es', many)).toEqual([]);
  });

  it('an interpolation a translation drops or invents', () => {
    const dropped = en.replace('"Live from: {{studio}}"', '"Live from our studio"');
    expect(checkWith('en', dropped)).toEqual([
      `locales/en/translation.json:${lineOf(dropped, '"currentStudio"')}: hero.currentStudio must keep {{studio}}`,
    ]);
    const invented = en.replace('"Live from: {{studio}}"', '"Live from: {{studio}} in {{city}}"');
    expect(checkWith('en', invented)).toEqual([
      `locales/en/translation.json:${lineOf(invented, '"currentStudio"')}: hero.currentStudio uses {{city}}, which de does not`,
    ]);
  });

  it('a reference to a key that does not exist', () => {
    const text = en.replace('"Live from: {{studio}}"', '"$t(prodct): {{studio}}"');
    expect(checkWith('en', text)).toEqual([
      `locales/en/translation.json:${lineOf(text, '"currentStudio"')}: hero.currentStudio refers to $t(prodct), which is not a key of en`,
    ]);
  });
});
