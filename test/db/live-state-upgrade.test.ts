import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationFiles, startSupabaseDatabase, type Postgres } from '../helpers/postgres.ts';

/**
 * A project whose row was saved before the row had rules of its own, with values those rules
 * refuse: applying the later migrations empties the refused parts, keeps the earlier state in the
 * history and says what it emptied, instead of failing the deploy.
 */
const RULES_FROM = '20261203';
const later = migrationFiles().filter((file) => file >= RULES_FROM);

let db: Postgres & { migrate(files: string[]): Promise<string> };
let messages = '';
beforeAll(async () => {
  db = await startSupabaseDatabase({ until: (file) => file < RULES_FROM });
  await db.sql(
    `update public.live_state set notice_level = 'info', notice_de = 'Beginn um 18:15', status = 'EventDelayed',
       start_time = '18.15', end_time = '21:30', stream_embed_url = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ'`,
  );
  messages = await db.migrate(later);
}, 60_000);
afterAll(() => db?.stop());

describe('the migrations that give the live row its rules, on a row saved before them', () => {
  it('are the later migrations, in the Supabase CLI’s order', () => {
    expect(later).toEqual([
      '20261203120000_live_state_history.sql',
      '20261203120100_live_state_stays.sql',
      '20261203120200_live_state_rules.sql',
      '20261207120000_live_recording.sql',
    ]);
  });

  it('empty what the rules refuse, keep the rest, and say what they emptied', async () => {
    expect(
      await db.sql(
        `select concat_ws('|', notice_level, notice_de, coalesce(status, '<null>'), coalesce(start_time, '<null>'), coalesce(end_time, '<null>'), stream_embed_url) from public.live_state`,
      ),
    ).toBe('info|Beginn um 18:15|<null>|<null>|<null>|https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ');
    expect(messages).toContain(
      'WARNING:  live_state: emptied what the new rules refuse (status, start_time and end_time); its earlier values are in live_state_history',
    );
  });

  it('keep the row as it was saved first in the history, then the emptied one', async () => {
    expect(
      await db.sql(
        `select concat_ws('|', saved_by, status, start_time, end_time) from public.live_state_history order by id`,
      ),
    ).toBe('postgres|EventDelayed|18.15|21:30\npostgres');
  });

  it('refuse a bad value from then on', async () => {
    await expect(db.sql(`update public.live_state set status = 'EventDelayed'`)).rejects.toThrow(
      'violates check constraint "status is one of the five event statuses"',
    );
  });
});
