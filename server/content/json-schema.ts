import { z } from 'zod';
import { liveSchema } from './live-file.ts';
import { contentSchema } from './site-content.ts';

/** An editor file's JSON Schema, generated from the zod schema the server checks the file with. */
function jsonSchemaOf(schema: z.ZodType, title: string): Record<string, unknown> {
  return { ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), title };
}

/**
 * The content file's JSON Schema, so an editor's tool completes field names and flags wrong
 * values. Rules JSON Schema cannot express (a real date, a known time zone, unique studio ids)
 * are still checked at start and by `npm run check:content`.
 */
export function contentJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(contentSchema, 'Event landing page content');
}

/**
 * The live file's JSON Schema. What it cannot state (the default language's notice text, the
 * day's times within the event's day, the stream's origin) is checked when the server reads the
 * file and by `npm run check:content`.
 */
export function liveJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf(liveSchema, 'Event landing page live state');
}

/** A JSON Schema as its file holds it. */
export function jsonSchemaText(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
