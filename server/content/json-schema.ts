import { z } from 'zod';
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
