/** Writes content/event.schema.json from the content file's zod schema. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { contentJsonSchemaText } from '../server/content/json-schema.ts';
import { APP_ROOT } from '../server/config/paths.ts';

const target = path.join(APP_ROOT, 'content', 'event.schema.json');
writeFileSync(target, contentJsonSchemaText());
console.log(`wrote ${path.relative(APP_ROOT, target)}`);
