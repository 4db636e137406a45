import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';

/** What a copy of the project needs to build, serve and run its scripts (node_modules is linked, not copied). */
export const PROJECT_SOURCES = [
  'client',
  'content',
  'locales',
  'public',
  'scripts',
  'server',
  'shared',
  'package.json',
  'tsconfig.json',
];

/**
 * A copy of the project in a temporary folder, with its own dist/ and sources a test may edit or
 * a command may write, sharing this checkout's node_modules. `remove` deletes it.
 */
export function copyProject(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  for (const entry of PROJECT_SOURCES) cpSync(path.join(APP_ROOT, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(APP_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
