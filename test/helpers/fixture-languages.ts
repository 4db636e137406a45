import { cpSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_ROOT, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';

/** Two languages added by files alone: French, and Arabic, written right to left with no flag. */
export const FIXTURE_LANGUAGES = ['fr', 'ar'] as const;
const FIXTURES = path.join(APP_ROOT, 'test/fixtures/languages');

type Dictionary = { [key: string]: string | Dictionary };

function merged(base: Dictionary, over: Dictionary): Dictionary {
  const out: Dictionary = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const inner = out[key];
    out[key] = typeof value === 'object' && typeof inner === 'object' ? merged(inner, value) : value;
  }
  return out;
}

/**
 * A copy of the shipped locale folders with the fixture languages beside them (each the English
 * file with its own `language` block and a few texts of its own), and a content file that lists
 * them after the shipped three: what an editor would write, in a temporary folder.
 */
export function withFixtureLanguages(): { localesDir: string; contentPath: string; languages: string[] } {
  const root = mkdtempSync(path.join(tmpdir(), 'languages-'));
  const localesDir = path.join(root, 'locales');
  cpSync(LOCALES_DIR, localesDir, { recursive: true });
  const english = JSON.parse(readFileSync(path.join(LOCALES_DIR, 'en/translation.json'), 'utf8')) as Dictionary;
  for (const code of FIXTURE_LANGUAGES) {
    const own = JSON.parse(readFileSync(path.join(FIXTURES, `${code}.json`), 'utf8')) as Dictionary;
    const dictionary = merged(english, own);
    // The language's own description only: a language that names no flag shows the neutral mark.
    if (!('flag' in (own.language as Dictionary))) delete (dictionary.language as Dictionary).flag;
    mkdirSync(path.join(localesDir, code));
    writeFileSync(path.join(localesDir, code, 'translation.json'), `${JSON.stringify(dictionary, null, 2)}\n`);
  }
  const content = JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as { languages: string[] };
  content.languages = [...content.languages, ...FIXTURE_LANGUAGES];
  const contentPath = path.join(root, 'event.json');
  writeFileSync(contentPath, `${JSON.stringify(content, null, 2)}\n`);
  return { localesDir, contentPath, languages: content.languages };
}
