import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, startSupabaseDatabase, type Postgres } from '../helpers/postgres.ts';

/**
 * The migration that makes the live table, applied to Debian's PostgreSQL with the roles and
 * default privileges a Supabase project has: anon reads the row and can change nothing.
 */
let db: Postgres;
beforeAll(async () => {
  db = await startSupabaseDatabase();
}, 60_000);
afterAll(() => db?.stop());

const as = (role: string, statement: string) => db.sql(`set role ${role}; ${statement}`);

describe('the live_state migration', () => {
  it('is named as the Supabase CLI names migrations: <timestamp>_<name>.sql', () => {
    expect(readdirSync(MIGRATIONS)).toContain('20261126120000_live_state.sql');
    for (const file of readdirSync(MIGRATIONS)) expect(file).toMatch(/^\d{14}_[a-z0-9_]+\.sql$/);
  });

  it('makes one row, with row-level security on', async () => {
    expect(await db.sql(`select relrowsecurity from pg_class where oid = 'public.live_state'::regclass`)).toBe('t');
    expect(await db.sql('select id, notice_level, status from public.live_state')).toBe('1||');
    await expect(db.sql('insert into public.live_state (id) values (2)')).rejects.toThrow(/live_state_id_check/);
  });

  it('lets anon read the row as the owner wrote it', async () => {
    await db.sql(
      `update public.live_state set notice_level = 'warning', notice_de = 'Beginn um 18:15', status = 'EventPostponed'`,
    );
    expect(await as('anon', 'select notice_level, notice_de, status from public.live_state')).toBe(
      'warning|Beginn um 18:15|EventPostponed',
    );
  });

  it.each([
    ['insert', `insert into public.live_state (id) values (1)`],
    ['update', `update public.live_state set status = 'EventCancelled'`],
    ['delete', 'delete from public.live_state'],
    ['truncate', 'truncate public.live_state'],
  ])('refuses anon to %s', async (_, statement) => {
    await expect(as('anon', statement)).rejects.toThrow(/permission denied for table live_state/);
    expect(await db.sql('select count(*) from public.live_state')).toBe('1');
  });

  it('gives signed-in users (authenticated) nothing', async () => {
    await expect(as('authenticated', 'select * from public.live_state')).rejects.toThrow(/permission denied/);
  });

  it('has the columns of the day’s times, which anon reads as written', async () => {
    await db.sql(`update public.live_state set start_time = '18:15', end_time = '21:30'`);
    expect(await as('anon', 'select start_time, end_time from public.live_state')).toBe('18:15|21:30');
    await db.sql(`update public.live_state set start_time = null, end_time = null`);
  });

  it('adds the backup stream’s column, empty, which anon reads and cannot change', async () => {
    expect(readdirSync(MIGRATIONS)).toContain('20261127000100_live_stream.sql');
    expect(await db.sql('select stream_embed_url is null from public.live_state')).toBe('t');
    const backup = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ';
    await db.sql(`update public.live_state set stream_embed_url = '${backup}'`);
    expect(await as('anon', 'select stream_embed_url from public.live_state')).toBe(backup);
    await expect(as('anon', `update public.live_state set stream_embed_url = ''`)).rejects.toThrow(
      /permission denied for table live_state/,
    );
    await expect(as('authenticated', 'select stream_embed_url from public.live_state')).rejects.toThrow(
      /permission denied/,
    );
    expect(await db.sql('select stream_embed_url from public.live_state')).toBe(backup);
  });

  it('adds the recording’s columns, empty, which anon reads and cannot change', async () => {
    expect(readdirSync(MIGRATIONS)).toContain('20261207120000_live_recording.sql');
    expect(
      await db.sql('select recording_embed_url is null and recording_begins_at is null from public.live_state'),
    ).toBe('t');
    const recording = 'https://www.youtube-nocookie.com/embed/recording01';
    await db.sql(`update public.live_state set recording_embed_url = '${recording}', recording_begins_at = '0:04:30'`);
    expect(await as('anon', 'select recording_embed_url, recording_begins_at from public.live_state')).toBe(
      `${recording}|0:04:30`,
    );
    await expect(as('anon', `update public.live_state set recording_embed_url = ''`)).rejects.toThrow(
      /permission denied for table live_state/,
    );
    expect(
      await db.sql(
        'select recording_embed_url, recording_begins_at from public.live_state_history order by id desc limit 1',
      ),
    ).toBe(`${recording}|0:04:30`);
    await db.sql('update public.live_state set recording_embed_url = null, recording_begins_at = null');
  });

  it('stamps updated_at on every save, whatever the save sets it to', async () => {
    const before = await db.sql('select updated_at from public.live_state');
    await db.sql(`update public.live_state set notice_en = 'Start at 18:15', updated_at = '2000-01-01'`);
    const after = await db.sql('select updated_at from public.live_state');
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
  });
});
