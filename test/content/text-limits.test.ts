import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT, liveFileBeside } from '../../server/config/paths.ts';
import { checkEditorFiles } from '../../server/content/editor-files.ts';
import { MAX_STUDIO_LENGTH } from '../../server/backend/backend-data.ts';
import { characterCount, LOCALE_TEXT_LIMITS, TEXT_LIMITS } from '../../server/content/text-limits.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { atTheLimits, LONG_WORD } from '../helpers/long-texts.ts';

/**
 * The limits of the texts the hero shows are one fact: the content check, the locale check and the
 * backend's slide labels read them from server/content/text-limits.ts, the event team's guide
 * states each, and the browser test's texts (test/browser/long-names.test.ts) are exactly at them.
 */
const GUIDE = readFileSync(path.join(APP_ROOT, 'docs/event-team.md'), 'utf8');
/** The rows of the guide's table of limits: each row's cells. */
const ROWS = GUIDE.split('\n')
  .filter((line) => line.startsWith('| ') && /\| \d+ \|$/.test(line))
  .map((line) => line.split('|').map((cell) => cell.trim()));

const checked = (files: { contentPath: string; localesDir: string }) =>
  checkEditorFiles({
    ...files,
    contentShown: 'event.json',
    localesShown: 'locales',
    livePath: liveFileBeside(files.contentPath),
    liveShown: 'live.json',
  });

describe('the limits of the texts the hero shows', () => {
  it.each(Object.entries(LOCALE_TEXT_LIMITS))('the event team’s guide states %s’s: %i', (key, limit) => {
    const rows = ROWS.filter((cells) => cells.some((cell) => new RegExp(`\`${key}[\`_]`).test(cell)));
    expect(rows, `a row of the guide's table names \`${key}\``).toHaveLength(1);
    expect(rows[0]!.at(-2)).toBe(String(limit));
  });

  it.each([
    ["a studio's `name`", TEXT_LIMITS.studioName],
    ['its `studio`', TEXT_LIMITS.studioName],
    ["a studio's `city`, `displayCity`", TEXT_LIMITS.city],
    ['`programme.segments.<id>.title`', TEXT_LIMITS.segmentTitle],
    ['`programme.segments.<id>.description`', TEXT_LIMITS.segmentDescription],
  ])('the event team’s guide states the content file’s and the backend’s: %s, %i', (field, limit) => {
    const row = ROWS.find((cells) => cells.some((cell) => cell.includes(field)));
    expect(row?.at(-2)).toBe(String(limit));
  });

  it("holds a backend slide's label to a studio's name in the content file", () => {
    expect(MAX_STUDIO_LENGTH).toBe(TEXT_LIMITS.studioName);
  });

  it('the browser test’s texts are at the limits: the check passes them, and refuses one character more', () => {
    const files = atTheLimits();
    expect(checked(files).problems).toEqual([]);
    for (const language of LANGUAGES) {
      const texts = JSON.parse(readFileSync(path.join(files.localesDir, language, 'translation.json'), 'utf8'));
      expect(characterCount(texts.product)).toBe(TEXT_LIMITS.name);
      expect(texts.product.startsWith(`${LONG_WORD} `)).toBe(true);
      expect(characterCount(texts.hero.tagline)).toBe(TEXT_LIMITS.tagline);
      expect(characterCount(texts.hero.cta)).toBe(TEXT_LIMITS.button);
      expect(characterCount(texts.programme.segments.keynote.title)).toBe(TEXT_LIMITS.segmentTitle);
      expect(characterCount(texts.programme.segments.keynote.description)).toBe(TEXT_LIMITS.segmentDescription);
    }
    expect(characterCount(LONG_WORD)).toBe(60);
    const content = JSON.parse(readFileSync(files.contentPath, 'utf8'));
    expect(characterCount(content.studios[0].name)).toBe(TEXT_LIMITS.studioName);
    expect(characterCount(content.studios[0].displayCity)).toBe(TEXT_LIMITS.city);

    const over = atTheLimits((c) => (c.studios[2].city += 'x'));
    expect(checked(over).problems).toEqual([
      expect.stringMatching(/^event\.json:\d+: studios\.2\.city ".*" has 41 characters, at most 40$/),
    ]);
  });
});
