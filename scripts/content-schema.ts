/** Writes content/event.schema.json and content/live.schema.json from the zod schemas the server checks the files with. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { contentJsonSchema, jsonSchemaText, liveJsonSchema } from '../server/content/json-schema.ts';
import { APP_ROOT } from '../server/config/paths.ts';

for (const [name, schema] of [
  ['event.schema.json', contentJsonSchema()],
  ['live.schema.json', liveJsonSchema()],
] as const) {
  const target = path.join(APP_ROOT, 'content', name);
  writeFileSync(target, jsonSchemaText(schema));
  console.log(`wrote ${path.relative(APP_ROOT, target)}`);
}
