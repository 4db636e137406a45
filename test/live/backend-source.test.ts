import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EMPTY_LIVE_ROW,
  failure,
  HANG,
  MISSING_TABLE,
  raw,
  rows,
  startFakeSupabase,
  type FakeSupabase,
} from '../../scripts/harness/fake-supabase.ts';
import type { ManualClock } from '../helpers/backend.ts';
import { answerNormally, backendApp, snapshotWith, tempSnapshotPath, warnings } from '../helpers/backend.ts';
import { parseHtml } from '../helpers/html.ts';
import { startServer } from '../../scripts/harness/server-process.ts';

/**
 * With a backend, the live state is its live_state row, read with the anon key through
 * supabase-js and the cache the hero's calls have: its own short freshness, one call for
 * concurrent misses, the last good state while the backend fails, the snapshot across restarts.
 * A row the check refuses changes nothing, and is logged and counted once.
 */
let fake: FakeSupabase;
beforeAll(async () => {
  fake = await startFakeSupabase();
});
afterAll(() => fake.close());
afterEach(() => {
  fake.calls.liveRows = 0;
  fake.requests.length = 0;
});

const GOOD = {
  ...EMPTY_LIVE_ROW,
  notice_level: 'warning',
  notice_de: 'Beginn um 18:15 <b>!</b>',
  notice_en: 'Start at 18:15',
  status: 'EventPostponed',
  updated_at: '2027-03-18T16:40:00+00:00',
};

async function liveApp(options: { clock?: ManualClock; snapshotPath?: string; env?: NodeJS.ProcessEnv } = {}) {
  answerNormally(fake);
  fake.reply.liveRows = rows(GOOD);
  const built = await backendApp(fake, { ...options, env: { UPSTREAM_TIMEOUT_MS: '300', ...options.env } });
  const refusals = async () =>
    (await built.deps.metrics.registry.getSingleMetric('live_changes_refused_total')!.get()).values.find(
      (value) => value.labels.source === 'backend',
    )?.value ?? 0;
  return { ...built, refusals };
}

const live = async (app: RequestListener) =>
  (await request(app).get('/api/live').expect(200)).body as Record<string, unknown>;
const noticeShown = async (app: RequestListener, lng = 'en') => {
  const res = await request(app).get('/').set('Cookie', `selectedLanguage=${lng}`).expect(200);
  return parseHtml(res.text).querySelector('[data-testid="live-notice"]')?.textContent ?? null;
};

describe('the live row', () => {
  it('is on every page and in /api/live, its markup as text, read with the anon key', async () => {
    const { app } = await liveApp();
    expect(await live(app)).toMatchObject({
      notice: { level: 'warning', text: { de: GOOD.notice_de, en: GOOD.notice_en } },
      status: 'EventPostponed',
      updated: '2027-03-18T16:40:00.000Z',
    });
    expect(await noticeShown(app)).toBe('Important: Start at 18:15');
    const de = await request(app).get('/impressum').set('Cookie', 'selectedLanguage=de');
    expect(parseHtml(de.text).querySelector('[data-testid="live-notice"]')!.textContent).toContain(GOOD.notice_de);
    expect(de.text).not.toContain('<b>!</b>');
    const call = fake.requests.find((request) => request.route === 'liveRows')!;
    expect(call).toMatchObject({ method: 'GET', path: '/rest/v1/live_state', search: '?select=*&limit=2' });
    expect(call.headers.apikey).toBe(fake.key);
  });

  it('is fresh for LIVE_BACKEND_FRESH_SECONDS (10 by default): an edit shows once that has passed', async () => {
    const { app, clock } = await liveApp();
    await live(app);
    fake.reply.liveRows = rows({ ...GOOD, notice_en: 'Start at 18:30' });
    clock.advance(9.9);
    expect(await noticeShown(app)).toBe('Important: Start at 18:15');
    expect(fake.calls.liveRows).toBe(1);
    clock.advance(0.1);
    // Past its freshness the row is read again before it is served, never served stale while
    // the backend answers: the server's part of the bound is the freshness itself.
    expect(await noticeShown(app)).toBe('Important: Start at 18:30');
    expect(fake.calls.liveRows).toBe(2);
  });

  it('confirms each row it takes in the log with what the page shows, a save that changes none of it as read', async () => {
    const { app, clock, logLines } = await liveApp();
    await live(app);
    // The content file's times, as the row leaves them, on the event's clock; the row's status.
    const shows = {
      table: 'live_state',
      notice: 'warning',
      noticeLanguages: ['de', 'en'],
      status: 'EventPostponed',
      start: '2027-03-18T18:00',
      end: '2027-03-18T21:30',
      stream: null,
    };
    expect(logLines.filter((line) => line.msg === 'live state changed')).toEqual([expect.objectContaining(shows)]);
    // The same words saved again a minute later, then a delay.
    fake.reply.liveRows = rows({ ...GOOD, updated_at: '2027-03-18T16:41:00+00:00' });
    clock.advance(10);
    await live(app);
    expect(logLines.filter((line) => line.msg === 'live row read; nothing the page shows changed')).toEqual([
      expect.objectContaining(shows),
    ]);
    fake.reply.liveRows = rows({ ...GOOD, status: null, start_time: '18:15', updated_at: '2027-03-18T16:42:00+00:00' });
    clock.advance(10);
    await live(app);
    expect(logLines.filter((line) => line.msg === 'live state changed').at(-1)).toMatchObject({
      ...shows,
      status: 'EventRescheduled',
      start: '2027-03-18T18:15',
    });
  });

  it('makes one call for any number of concurrent misses', async () => {
    const { app } = await liveApp();
    const release = fake.hold('liveRows');
    const answers = Promise.all(Array.from({ length: 50 }, () => request(app).get('/api/live')));
    await fake.received('liveRows', 1);
    release();
    const bodies = new Set((await answers).map((res) => JSON.stringify(res.body)));
    expect(bodies.size).toBe(1);
    expect(fake.calls.liveRows).toBe(1);
  });

  it('survives a restart in the snapshot, while the backend fails', async () => {
    const snapshotPath = tempSnapshotPath();
    const first = await liveApp({ snapshotPath });
    await live(first.app);
    await snapshotWith(snapshotPath, ['live']);
    const restarted = await liveApp({ snapshotPath });
    fake.reply.liveRows = failure(500);
    expect(await live(restarted.app)).toMatchObject({ notice: { text: { en: GOOD.notice_en } }, status: GOOD.status });
  });
});

describe('the backend failing', () => {
  it.each([
    ['down (500)', failure(500), /^live_state: answered HTTP 500 \(boom\)$/],
    ['without the table (404 PGRST205)', MISSING_TABLE, /^live_state: answered HTTP 404 PGRST205 \(Could not find/],
    ['slow (past UPSTREAM_TIMEOUT_MS)', HANG, /^timed out after 300 ms$/],
    ['answering something else (not JSON)', raw('<html>gateway</html>', { contentType: 'text/html' }), /not JSON/],
    ['answering something else (not rows)', raw('{"a":1}', { contentType: 'application/json' }), /not a list of rows/],
  ])('%s: the last good state stays, logged once, counted', async (_, reply, reason) => {
    const { app, clock, logLines, record, refusals } = await liveApp();
    const before = await live(app);
    fake.reply.liveRows = reply;
    for (let i = 0; i < 3; i++) {
      clock.advance(30);
      expect(await live(app)).toEqual(before);
      expect(await noticeShown(app)).toBe('Important: Start at 18:15');
    }
    const failed = warnings(logLines).filter((line) => line.endpoint === 'live');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ msg: 'backend call failed', reason: expect.stringMatching(reason) });
    expect(record.upstreamErrors).toContain('live');
    expect(await refusals()).toBe(0);
  });
});

it('the backend gone (connection refused): the last good state stays, the failure logged once', async () => {
  const gone = await startFakeSupabase();
  answerNormally(gone);
  gone.reply.liveRows = rows(GOOD);
  const { app, clock, logLines } = await backendApp(gone);
  const before = await live(app);
  await gone.close();
  for (let i = 0; i < 3; i++) {
    clock.advance(30);
    expect(await live(app)).toEqual(before);
  }
  const failed = warnings(logLines).filter((line) => line.endpoint === 'live');
  expect(failed).toHaveLength(1);
  expect(failed[0]!.reason).toBe('live_state: fetch failed (ECONNREFUSED)');
});

describe('a bad row', () => {
  it.each<[string, Record<string, unknown>[] | string, string]>([
    ['a notice over its limit', [{ ...GOOD, notice_en: 'x'.repeat(201) }], 'notice_en "xxx'],
    ['an unknown status', [{ ...GOOD, status: 'EventDelayed' }], 'status "EventDelayed" must be one of'],
    ['an unknown level', [{ ...GOOD, notice_level: 'alarm' }], 'notice_level "alarm" must be one of'],
    [
      'a column written twice',
      JSON.stringify([GOOD]).replace('"status":', '"status":"EventCancelled","status":'),
      'status is in the row twice',
    ],
    ['an empty row', [{}], 'id is missing'],
    ['no row', [], 'live_state has no row'],
    ['no default language', [{ ...GOOD, notice_de: '' }], 'notice_de is missing'],
  ])(
    '%s: refused, the last good state stays, logged once with the column, counted once',
    async (_, answer, problem) => {
      const { app, clock, logLines, refusals, record } = await liveApp();
      const before = await live(app);
      fake.reply.liveRows =
        typeof answer === 'string' ? raw(answer, { contentType: 'application/json; charset=utf-8' }) : rows(...answer);
      for (let i = 0; i < 3; i++) {
        clock.advance(30);
        expect(await live(app)).toEqual(before);
        expect(await noticeShown(app)).toBe('Important: Start at 18:15');
      }
      expect(fake.calls.liveRows).toBeGreaterThanOrEqual(3);
      const refused = warnings(logLines);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.msg).toMatch(/^live row change refused; the live state stays as it was: live_state: /);
      expect(refused[0]!.msg).toContain(problem);
      expect(refused[0]!.problems).toEqual(expect.arrayContaining([expect.stringContaining(problem)]));
      expect(await refusals()).toBe(1);
      expect(record.upstreamErrors).not.toContain('live');

      // Mended: taken at the next read.
      fake.reply.liveRows = rows({ ...GOOD, notice_en: 'Mended' });
      clock.advance(30);
      await live(app);
      await expect.poll(() => noticeShown(app)).toBe('Important: Mended');
    },
  );

  it.each([
    [
      'a notice for a language not offered',
      { notice_fr: 'Maintenant' },
      'notice_fr is for a language that the content file does not offer (de, en, es); it is left out',
    ],
    [
      'a column a migration ahead of the release added',
      { recording_url: 'https://player.vimeo.com/video/1' },
      "`recording_url` is a column this server does not read (a later release's?); it is left out",
    ],
  ])('with %s: taken without it, with a warning, once', async (_, columns, warning) => {
    const { app, clock, logLines, refusals } = await liveApp();
    await live(app);
    fake.reply.liveRows = rows({ ...GOOD, notice_en: 'Now', ...columns });
    for (let i = 0; i < 3; i++) {
      clock.advance(30);
      await live(app);
    }
    await expect.poll(() => noticeShown(app)).toBe('Important: Now');
    expect((await live(app)).notice).toEqual({ level: 'warning', text: { de: GOOD.notice_de, en: 'Now' } });
    expect(warnings(logLines).map((line) => line.msg)).toEqual([`live_state: warning: ${warning}`]);
    expect(await refusals()).toBe(0);
  });

  it('before any good row: no notice and no status', async () => {
    const { app, refusals } = await liveApp();
    fake.reply.liveRows = rows({ ...GOOD, status: 'EventDelayed' });
    expect(await live(app)).toMatchObject({ notice: null, status: null });
    expect(await refusals()).toBe(1);
  });
});

describe('the built server with a backend', () => {
  it('follows the row, not the live file (and says so at start), and counts a refused row in its metrics', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'live-row-'));
    const liveFile = path.join(folder, 'live.json');
    writeFileSync(liveFile, JSON.stringify({ notice: { level: 'info', text: { de: 'Aus der Datei' } } }));
    answerNormally(fake);
    fake.reply.liveRows = rows(GOOD);
    const server = await startServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: fake.key,
      LIVE_PATH: liveFile,
      LIVE_BACKEND_FRESH_SECONDS: '1',
      CACHE_SNAPSHOT_PATH: path.join(folder, 'snapshot.json'),
    });
    try {
      expect(server.logs).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: 'the live file is not followed: with a backend, the live state is its live_state row',
        }),
      );
      const state = async () => (await (await fetch(`${server.url}/api/live`)).json()) as Record<string, unknown>;
      expect(await state()).toMatchObject({ notice: { text: { de: GOOD.notice_de } }, status: 'EventPostponed' });

      fake.reply.liveRows = rows({ ...GOOD, status: 'EventDelayed' });
      const refused = async () =>
        (await (await fetch(`${server.metricsUrl!}/metrics`)).text()).match(
          /^live_changes_refused_total\{source="backend"\} (\d+)$/m,
        )?.[1];
      await expect.poll(async () => (await state(), refused()), { timeout: 10_000, interval: 300 }).toBe('1');
      expect(await state()).toMatchObject({ notice: { text: { de: GOOD.notice_de } }, status: 'EventPostponed' });
    } finally {
      await server.stop();
    }
  });
});
