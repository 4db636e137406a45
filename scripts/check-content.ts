/**
 * Checks a content file, the translation files and the live file exactly as the server does at
 * start, without starting it: `npm run check:content [file]` (default: CONTENT_PATH, else
 * content/event.json); the live file is LIVE_PATH, else live.json beside the content file.
 * Prints every problem and warning, one line each with the file, the line and the field, and
 * exits 1 when there is a problem: one that would stop the server, or one in the live file, which
 * the server would refuse (keeping the last good live state).
 */
import path from 'node:path';
import { checkEditorFiles } from '../server/content/editor-files.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, liveFileBeside, LOCALES_DIR } from '../server/config/paths.ts';

// A path given here is taken from where the command was typed, and printed as it was given;
// CONTENT_PATH and LOCALES_PATH as the server takes them, printed as the operator wrote them.
const argument = process.argv[2];
const cwd = process.env.INIT_CWD ?? process.cwd();
const [contentPath, contentShown] = argument
  ? [path.resolve(cwd, argument), argument]
  : process.env.CONTENT_PATH
    ? [path.resolve(APP_ROOT, process.env.CONTENT_PATH), process.env.CONTENT_PATH]
    : [DEFAULT_CONTENT_PATH, path.relative(cwd, DEFAULT_CONTENT_PATH)];
const [localesDir, localesShown] = process.env.LOCALES_PATH
  ? [path.resolve(APP_ROOT, process.env.LOCALES_PATH), process.env.LOCALES_PATH]
  : [LOCALES_DIR, path.relative(cwd, LOCALES_DIR) || '.'];

const [livePath, liveShown] = process.env.LIVE_PATH
  ? [path.resolve(APP_ROOT, process.env.LIVE_PATH), process.env.LIVE_PATH]
  : [liveFileBeside(contentPath), liveFileBeside(contentShown)];

const { problems, warnings, live, liveProblems } = checkEditorFiles({
  contentPath,
  contentShown,
  localesDir,
  localesShown,
  livePath,
  liveShown,
});
for (const line of warnings) console.log(line);
for (const line of problems) console.error(line);
const counted = (count: number) => `${count} ${count === 1 ? 'problem' : 'problems'}`;
const startProblems = problems.length - liveProblems;
if (startProblems > 0) console.error(`${counted(startProblems)}: the server would not start.`);
if (liveProblems > 0)
  console.error(
    `${counted(liveProblems)} in ${liveShown}: the server would refuse the file and keep the last good live state.`,
  );
if (problems.length > 0) process.exit(1);
const liveSays = live?.notice || live?.status || live?.stream ? 'valid' : 'valid (no live changes)';
console.log(`${contentShown}: valid; translations in ${localesShown}: valid; ${liveShown}: ${liveSays}`);
