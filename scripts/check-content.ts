/**
 * Checks a content file and the translation files exactly as the server does at start, without
 * starting it: `npm run check:content [file]` (default: CONTENT_PATH, else content/event.json).
 * Prints every problem and warning, one line each with the file, the line and the field, and
 * exits 1 when there is a problem that would stop the server.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { formatFinding } from '../server/content/findings.ts';
import { checkContentText, listedLanguageCodes } from '../server/content/site-content.ts';
import { checkTranslations } from '../server/content/translation-check.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../server/config/paths.ts';

// A path given here is taken from where the command was typed, and printed as it was given;
// CONTENT_PATH as the server takes it.
const argument = process.argv[2];
const cwd = process.env.INIT_CWD ?? process.cwd();
const [file, shown] = argument
  ? [path.resolve(cwd, argument), argument]
  : process.env.CONTENT_PATH
    ? [path.resolve(APP_ROOT, process.env.CONTENT_PATH), process.env.CONTENT_PATH]
    : [DEFAULT_CONTENT_PATH, path.relative(cwd, DEFAULT_CONTENT_PATH)];

// The languages' folders, as the server takes LOCALES_PATH.
const localesDir = process.env.LOCALES_PATH ? path.resolve(APP_ROOT, process.env.LOCALES_PATH) : LOCALES_DIR;
const shownLocales = path.relative(cwd, localesDir) || '.';

let problems: string[];
let warnings: string[] = [];
// The languages the content lists, whose translations are checked beside it.
let languages: string[] = [];
try {
  const text = readFileSync(file, 'utf8');
  languages = listedLanguageCodes(text);
  const checked = checkContentText(text, Date.now(), localesDir);
  problems = checked.problems.map((finding) => formatFinding(shown, finding));
  warnings = checked.warnings.map((finding) =>
    formatFinding(shown, { ...finding, message: `warning: ${finding.message}` }),
  );
} catch (error) {
  problems = [`${shown}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`];
}
if (languages.length > 0) problems.push(...checkTranslations(localesDir, languages, shownLocales));

for (const line of warnings) console.log(line);
for (const line of problems) console.error(line);
if (problems.length > 0) {
  console.error(`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}: the server would not start.`);
  process.exit(1);
}
console.log(`${shown}: valid; translations in ${shownLocales}: valid`);
