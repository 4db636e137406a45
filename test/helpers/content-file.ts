import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadContent, type SiteContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';

/** The shipped content file with an edit, written to a temporary file and loaded (and checked) as at start. */
export function editedContent(edit: (file: Record<string, any>) => void): SiteContent {
  const file = JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as Record<string, any>;
  edit(file);
  const filePath = path.join(mkdtempSync(path.join(tmpdir(), 'content-')), 'event.json');
  writeFileSync(filePath, JSON.stringify(file));
  return loadContent(filePath);
}
