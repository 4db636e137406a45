/** Writes content/event.schema.json and content/live.schema.json from the zod schemas the server checks the files with. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { contentJsonSchemaText, liveJsonSchemaText } from '../server/content/json-schema.ts';
import { APP_ROOT } from '../server/config/paths.ts';

for (const [name, text] of [
  ['event.schema.json', contentJsonSchemaText()],
  ['live.schema.json', liveJsonSchemaText()],
] as const) {
  const target = path.join(APP_ROOT, 'content', name);
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(APP_ROOT, target)}`);
}
