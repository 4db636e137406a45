import { z } from 'zod';
import { liveSchema } from './live-file.ts';
import { contentSchema } from './site-content.ts';

/**
 * The content file's JSON Schema, generated from the zod schema the server checks it with, so an
 * editor's tool completes field names and flags wrong values. Rules JSON Schema cannot express
 * (a real date, a known time zone, unique studio ids) are still checked at start and by
 * `npm run check:content`.
 */
export function contentJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(contentSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Event landing page content',
  };
}

export function contentJsonSchemaText(): string {
  return `${JSON.stringify(contentJsonSchema(), null, 2)}\n`;
}

/**
 * The live file's JSON Schema, generated as the content file's is from the schema the server
 * checks it with. What it cannot state (the default language's notice text, the day's times
 * within the event's day, the stream's origin) is checked when the server reads the file and by
 * `npm run check:content`.
 */
export function liveJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(liveSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Event landing page live state',
  };
}

export function liveJsonSchemaText(): string {
  return `${JSON.stringify(liveJsonSchema(), null, 2)}\n`;
}
