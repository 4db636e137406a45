import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { contentJsonSchema, liveJsonSchema } from '../../server/content/json-schema.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';

const SCHEMA_PATH = path.join(APP_ROOT, 'content', 'event.schema.json');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
const shippedContent = () => readJson(DEFAULT_CONTENT_PATH);

/** As an editor's tool reads the schema: patterns, enums and required fields; formats are only hints there. */
function schemaValidator() {
  return new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(readJson(SCHEMA_PATH));
}

describe("the content file's JSON Schema", () => {
  it('is the one generated from the zod schema the server checks with (run `npm run content:schema`)', () => {
    expect(readJson(SCHEMA_PATH)).toEqual(contentJsonSchema());
  });

  it('is what content/event.json names as its $schema', () => {
    expect(path.resolve(path.dirname(DEFAULT_CONTENT_PATH), shippedContent().$schema)).toBe(SCHEMA_PATH);
  });

  it('accepts the shipped content file', () => {
    const validate = schemaValidator();
    expect(validate(shippedContent()), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['a map address that is not https', (c: any) => (c.studios[0].mapEmbedUrl = 'http://maps.example.com')],
    ['a time that is not HH:MM', (c: any) => (c.event.startTime = '6pm')],
    ['an unknown event status', (c: any) => (c.event.status = 'Live')],
    ['a missing required field', (c: any) => delete c.company.email],
    ['a slide image on another scheme', (c: any) => (c.heroSlides[0].image = 'javascript:alert(1)')],
  ])('flags %s, as an editor types it', (_name, edit) => {
    const content = shippedContent();
    edit(content);
    expect(schemaValidator()(content)).toBe(false);
  });
});

describe("the live file's JSON Schema", () => {
  const LIVE_SCHEMA_PATH = path.join(APP_ROOT, 'content', 'live.schema.json');
  const validator = () =>
    new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(readJson(LIVE_SCHEMA_PATH));
  /** The event team's guide's example, naming the schema as the guide's examples do. */
  const example = () => ({
    $schema: './live.schema.json',
    notice: { level: 'warning', text: { de: 'Der Beginn verschiebt sich auf 18:15 Uhr.', en: 'The start moves.' } },
    status: 'EventPostponed',
    startTime: '18:15',
    stream: { embedUrl: 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ' },
  });

  it('is the one generated from the zod schema the server checks with (run `npm run content:schema`)', () => {
    expect(readJson(LIVE_SCHEMA_PATH)).toEqual(liveJsonSchema());
  });

  it('accepts a live file that names it, and an empty one', () => {
    const validate = validator();
    expect(validate(example()), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({})).toBe(true);
  });

  it("is named by every live file the event team's guide shows, each of which it accepts", () => {
    const guide = readFileSync(path.join(APP_ROOT, 'docs/event-team.md'), 'utf8');
    const examples = [...guide.matchAll(/```json\n([\s\S]*?)```/g)]
      // A placeholder the team fills in: a video's id is 11 characters.
      .map(([, block]) => block!.replace(/^ {2}/gm, '').replace('<backup id>', 'aqz-KE-bpKQ'))
      .filter((block) => /"(notice|status|startTime|endTime|stream)"/.test(block) && block.trim().startsWith('{'))
      .map((block) => JSON.parse(block) as Record<string, unknown>);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    const validate = validator();
    for (const example of examples) {
      expect(example.$schema, JSON.stringify(example)).toBe('./live.schema.json');
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it.each([
    ['an unknown level', (live: any) => (live.notice.level = 'urgent')],
    ['an unknown field', (live: any) => (live.notise = live.notice)],
    ['a notice text over 200 characters', (live: any) => (live.notice.text.en = 'x'.repeat(201))],
    ['a time that is not HH:MM', (live: any) => (live.startTime = '6pm')],
    ['an unknown status', (live: any) => (live.status = 'Delayed')],
  ])('flags %s, as an editor types it', (_name, edit) => {
    const live = example();
    edit(live);
    expect(validator()(live)).toBe(false);
  });
});

describe('npm run check:content', () => {
  const run = promisify(execFile);
  const folder = mkdtempSync(path.join(tmpdir(), 'check-content-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const checkContent = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', path.join(APP_ROOT, 'scripts/check-content.ts'), ...args], {
      cwd: APP_ROOT,
    });

  it('passes the shipped file and says which objects still hold sample values', async () => {
    const { stdout } = await checkContent(DEFAULT_CONTENT_PATH);
    expect(stdout).toContain(`${DEFAULT_CONTENT_PATH}: valid`);
    expect(stdout).toMatch(/:\d+: warning: video still holds sample values/);
  });

  it('fails a wrong file with the one line the server would stop with', async () => {
    const content = shippedContent();
    content.studios[2].mapEmbedUrl = 'http://maps.example.com';
    const file = path.join(folder, 'event.json');
    writeFileSync(file, JSON.stringify(content));
    const failure = await checkContent(file).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr.trim().split('\n')).toEqual([
      `${file}:1: studios.2.mapEmbedUrl "http://maps.example.com" must be an absolute https:// address`,
      '1 problem: the server would not start.',
    ]);
  });
});
