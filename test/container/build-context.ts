import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';
import { PROJECT_SOURCES } from '../helpers/project-copy.ts';

/** What an operator's checkout holds that the Dockerfile reads, node_modules and dist/ aside. */
const CHECKOUT = [...PROJECT_SOURCES, 'Dockerfile', '.dockerignore', 'package-lock.json', 'test'];

/**
 * Files a real checkout may hold beside the sources, in the folders the image copies too: none
 * may reach the image. Paths are the image's, under /app.
 */
export const PLANTED = [
  '.env',
  '.env.production',
  'content/.env',
  'public/images/deploy-key.pem',
  'locales/de/server.key',
  'public/npm-debug.log',
  '.git/config',
];

/** A copy of the checkout to build from, with the planted files in it; `remove` deletes it. */
export function buildContext(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'image-context-'));
  for (const entry of CHECKOUT) cpSync(path.join(APP_ROOT, entry), path.join(dir, entry), { recursive: true });
  for (const file of PLANTED) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), 'SECRET=do-not-ship\n');
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
