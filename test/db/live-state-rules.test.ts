import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSupabaseDatabase, type Postgres } from '../helpers/postgres.ts';
import { LIVE_ROW_CASES, type LiveRowColumn } from '../backend/live-row-cases.ts';

/**
 * The live row's own rules, tried as the event team saves in the table editor (the dashboard runs
 * its queries as `postgres`): the cases the server's check runs too
 * (test/backend/live-row-cases.ts), each refusal naming its constraint; the row that stays; every
 * save kept, and put back.
 */
const COLUMNS: readonly LiveRowColumn[] = [
  'notice_level',
  'notice_de',
  'notice_en',
  'notice_es',
  'status',
  'start_time',
  'end_time',
  'stream_embed_url',
  'recording_embed_url',
  'recording_begins_at',
];
const literal = (value: string | undefined) => (value === undefined ? 'null' : `'${value.replaceAll("'", "''")}'`);
/** One save of the row as the table editor makes it: every field as the form holds it, the others NULL. */
const saveStatement = (columns: Partial<Record<LiveRowColumn, string>>) =>
  `update public.live_state set ${COLUMNS.map((column) => `${column} = ${literal(columns[column])}`).join(', ')} where id = 1`;
const SEPARATOR = '\u001f';
/** The row's fields as saved, between brackets: psql's output is trimmed, a field's own white space is not. */
const rowAsSaved = (table = 'public.live_state', where = 'id = 1') =>
  db.sql(
    `select concat('[', concat_ws('${SEPARATOR}', ${COLUMNS.map((c) => `coalesce(${c}, '<null>')`).join(', ')}), ']') from ${table} where ${where}`,
  );
const expectedRow = (columns: Partial<Record<LiveRowColumn, string>>) =>
  `[${COLUMNS.map((column) => columns[column] ?? '<null>').join(SEPARATOR)}]`;

let db: Postgres;
beforeAll(async () => {
  db = await startSupabaseDatabase();
}, 60_000);
afterAll(() => db?.stop());

describe('the live row’s constraints, on the cases the server runs', () => {
  beforeEach(() => db.sql(saveStatement({})));

  it.each(LIVE_ROW_CASES.filter((c) => c.verdict === 'saved'))('saves $name, as written', async ({ columns }) => {
    await db.sql(saveStatement(columns));
    expect(await rowAsSaved()).toBe(expectedRow(columns));
  });

  it.each(LIVE_ROW_CASES.flatMap((c) => (c.verdict === 'refused' ? [c] : [])))(
    'refuses $name with “$constraint”, and keeps the row as it was',
    async ({ columns, constraint }) => {
      await expect(db.sql(saveStatement(columns))).rejects.toThrow(
        `new row for relation "live_state" violates check constraint "${constraint}"`,
      );
      expect(await rowAsSaved()).toBe(expectedRow({}));
    },
  );

  it.each(LIVE_ROW_CASES.flatMap((c) => (c.verdict === 'refused by the server' ? [c] : [])))(
    'saves $name, which only the server refuses: $because',
    async ({ columns }) => {
      await db.sql(saveStatement(columns));
      expect(await rowAsSaved()).toBe(expectedRow(columns));
    },
  );

  it('has no check constraint that no case refuses with, and every one says its rule in words', async () => {
    const named = (
      await db.sql(
        `select conname from pg_constraint where conrelid = 'public.live_state'::regclass and contype = 'c' and conname <> 'live_state_id_check' order by conname`,
      )
    ).split('\n');
    const tried = new Set(LIVE_ROW_CASES.flatMap((c) => (c.verdict === 'refused' ? [c.constraint] : [])));
    expect(named.filter((name) => !tried.has(name))).toEqual([]);
    for (const name of named) expect(name).toMatch(/^[a-z_]+ (is|has|needs) /);
  });
});

describe('the live row that stays', () => {
  it.each([
    ['deleted', 'delete from public.live_state'],
    ['deleted by its id', 'delete from public.live_state where id = 1'],
    ['truncated', 'truncate public.live_state'],
  ])('cannot be %s, by the dashboard’s role either, and says to empty its fields', async (_, statement) => {
    await expect(db.sql(statement)).rejects.toThrow(
      'live_state keeps its one row: empty its fields instead of deleting it',
    );
    expect(await db.sql('select count(*) from public.live_state')).toBe('1');
  });

  it('cannot be deleted by the service role, which row-level security does not hold', async () => {
    await expect(db.sql('set role service_role; delete from public.live_state')).rejects.toThrow(
      'empty its fields instead',
    );
    expect(await db.sql('select count(*) from public.live_state')).toBe('1');
  });
});

describe('the live row’s history', () => {
  const newestSave = () =>
    db.sql(
      `select concat_ws('|', saved_by, coalesce(saved_for, '<null>'), notice_level, notice_de) from public.live_state_history order by id desc limit 1`,
    );

  it('keeps every save, when and by which role: the table editor’s, postgres, with no user', async () => {
    const before = Number(await db.sql('select count(*) from public.live_state_history'));
    await db.sql(saveStatement({ notice_level: 'info', notice_de: 'Erste Fassung' }));
    await db.sql(saveStatement({ notice_level: 'warning', notice_de: 'Zweite Fassung' }));
    expect(Number(await db.sql('select count(*) from public.live_state_history'))).toBe(before + 2);
    expect(await newestSave()).toBe('postgres|<null>|warning|Zweite Fassung');
    expect(
      await db.sql(
        `select (select saved_at from public.live_state_history order by id desc limit 1) = updated_at from public.live_state`,
      ),
    ).toBe('t');
  });

  it('names the user a request through the API carried, where one did', async () => {
    await db.sql(
      `set role service_role; set request.jwt.claims = '{"sub":"5d2c","email":"regie@example.com","role":"service_role"}'; ${saveStatement({ notice_level: 'info', notice_de: 'Über die API' })}`,
    );
    expect(await newestSave()).toBe('service_role|regie@example.com|info|Über die API');
  });

  it('keeps no refused save', async () => {
    const before = await db.sql('select count(*) from public.live_state_history');
    await expect(db.sql(saveStatement({ notice_level: 'Warning', notice_de: 'x' }))).rejects.toThrow();
    expect(await db.sql('select count(*) from public.live_state_history')).toBe(before);
  });

  it('puts an earlier state back, and keeps that save in its turn', async () => {
    const earlier = {
      notice_level: 'info',
      notice_de: 'Beginn um 18:15',
      notice_en: 'Start at 18:15',
      start_time: '18:15',
    };
    await db.sql(saveStatement(earlier));
    const id = await db.sql('select max(id) from public.live_state_history');
    await db.sql(saveStatement({ status: 'EventCancelled' }));
    await db.sql(`select public.live_state_put_back(${id})`);
    expect(await rowAsSaved()).toBe(expectedRow(earlier));
    expect(await rowAsSaved('public.live_state_history', `id = (select max(id) from public.live_state_history)`)).toBe(
      expectedRow(earlier),
    );
  });

  it('says so when asked to put back a save it does not have', async () => {
    await expect(db.sql('select public.live_state_put_back(999999)')).rejects.toThrow(
      'live_state_history has no save 999999',
    );
  });

  it('gives the site’s keys none of it', async () => {
    for (const role of ['anon', 'authenticated']) {
      await expect(db.sql(`set role ${role}; select * from public.live_state_history`)).rejects.toThrow(
        'permission denied for table live_state_history',
      );
      await expect(db.sql(`set role ${role}; select public.live_state_put_back(1)`)).rejects.toThrow(
        'permission denied for function live_state_put_back',
      );
    }
  });
});
