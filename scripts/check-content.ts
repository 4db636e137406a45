/**
 * Checks a content file exactly as the server does at start, without starting it:
 * `npm run check:content [file]` (default: CONTENT_PATH, else content/event.json).
 * Prints one line and exits 1 when the file would stop the server.
 */
import path from 'node:path';
import { loadContent } from '../server/content/site-content.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH } from '../server/paths.ts';

// A path given here is taken from where the command was typed; CONTENT_PATH as the server takes it.
const argument = process.argv[2];
const file = argument
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), argument)
  : process.env.CONTENT_PATH
    ? path.resolve(APP_ROOT, process.env.CONTENT_PATH)
    : DEFAULT_CONTENT_PATH;
try {
  const content = loadContent(file);
  const samples = content.placeholders.length ? ` (still sample values: ${content.placeholders.join(', ')})` : '';
  console.log(`${path.relative(process.cwd(), file) || file}: valid${samples}`);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
