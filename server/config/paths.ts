import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project folder (the one holding package.json). Found by walking up from this
 * module, so it is the same whether the server runs from source or from dist/.
 */
function findAppRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const APP_ROOT = findAppRoot(path.dirname(fileURLToPath(import.meta.url)));
export const LOCALES_DIR = path.join(APP_ROOT, 'locales');
export const PUBLIC_DIR = path.join(APP_ROOT, 'public');
export const CLIENT_BUILD_DIR = path.join(APP_ROOT, 'dist', 'client');
export const DEFAULT_CONTENT_PATH = path.join(APP_ROOT, 'content', 'event.json');

/** The live file's default place: beside the content file, as a ConfigMap mounts both in one folder. */
export function liveFileBeside(contentPath: string): string {
  return path.join(path.dirname(contentPath), 'live.json');
}
