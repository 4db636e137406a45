import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';
import type { Visitor } from './driver/visitor.ts';

/** Where the suite leaves its screenshots, as build artefacts. */
export const SCREENSHOT_DIR = path.join(APP_ROOT, 'test-results', 'screenshots');

/** The visitor's screen as it is now, kept under `name` in SCREENSHOT_DIR; the PNG is returned. */
export async function keepScreenshot(visitor: Visitor, name: string): Promise<Buffer> {
  const png = await visitor.screenshot();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  writeFileSync(path.join(SCREENSHOT_DIR, name), png);
  return png;
}
