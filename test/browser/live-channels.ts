import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EMPTY_LIVE_ROW, rows, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { answerNormally } from '../helpers/backend.ts';
import type { Language } from '../../shared/languages.ts';
import { LANGUAGES, type SampleLanguage } from '../helpers/languages.ts';
import type { Visitor } from './driver/visitor.ts';
import { waitForHydration } from './journey.ts';
import type { Browsers } from './site.ts';

/** What the team writes, in the live file's words. */
export interface LiveChange {
  notice?: { level: 'info' | 'warning'; text: Partial<Record<SampleLanguage, string>> } | null;
  status?: string | null;
  startTime?: string | null;
  endTime?: string | null;
  stream?: { embedUrl: string } | null;
  recording?: { embedUrl: string; beginsAt?: string } | null;
}

/** One way of writing the live state: a file saved whole, or the backend's row edited. */
export interface LiveChannel {
  server: RunningServer;
  write(change: LiveChange): void;
  /** A change the check refuses, and the reason the server logs for it. */
  mistake(): { reason: RegExp };
  stop(): Promise<void>;
}

/** Short intervals, so that a journey waits seconds, not the defaults' half minute. */
const QUICK = { LIVE_POLL_SECONDS: '1', LIVE_EDGE_SECONDS: '1' };

/** The live file, saved whole (written beside it, then renamed over it), read by a server of `env`. */
export async function throughTheFile(env: NodeJS.ProcessEnv = {}): Promise<LiveChannel> {
  const folder = mkdtempSync(path.join(tmpdir(), 'on-the-day-'));
  const file = path.join(folder, 'live.json');
  const save = (text: string) => {
    writeFileSync(`${file}.next`, text);
    renameSync(`${file}.next`, file);
  };
  save('{}');
  const server = await startServer({ ...env, ...QUICK, LIVE_PATH: file, LIVE_FILE_CHECK_SECONDS: '1' });
  return {
    server,
    write: (change) => save(JSON.stringify(change, null, 2)),
    mistake() {
      save('{\n  "notice": {\n    "level": "urgent",\n    "text": { "de": "Falsch" }\n  }\n}\n');
      return { reason: /^live file change refused; the live state stays as it was: .*live\.json:3: notice\.level/ };
    },
    async stop() {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The backend's live row, edited as in the table editor (each save a minute later), read by a server of `env`. */
export async function throughTheRow(env: NodeJS.ProcessEnv = {}): Promise<LiveChannel> {
  const fake: FakeSupabase = await startFakeSupabase();
  answerNormally(fake);
  let updated = Date.parse(EMPTY_LIVE_ROW.updated_at);
  const edit = (columns: Record<string, unknown>) => {
    updated += 60_000;
    fake.reply.liveRows = rows({ ...EMPTY_LIVE_ROW, ...columns, updated_at: new Date(updated).toISOString() });
  };
  edit({});
  const snapshots = mkdtempSync(path.join(tmpdir(), 'on-the-day-snapshot-'));
  const server = await startServer({
    ...env,
    ...QUICK,
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: fake.key,
    CACHE_SNAPSHOT_PATH: path.join(snapshots, 'snapshot.json'),
    LIVE_BACKEND_FRESH_SECONDS: '1',
  });
  return {
    server,
    write(change) {
      const text = change.notice?.text ?? {};
      edit({
        notice_level: change.notice?.level ?? null,
        ...Object.fromEntries(LANGUAGES.map((lng) => [`notice_${lng}`, text[lng] ?? null])),
        status: change.status ?? null,
        start_time: change.startTime ?? null,
        end_time: change.endTime ?? null,
        stream_embed_url: change.stream?.embedUrl ?? null,
        recording_embed_url: change.recording?.embedUrl ?? null,
        recording_begins_at: change.recording?.beginsAt ?? null,
      });
    },
    mistake() {
      edit({ notice_level: 'urgent', notice_de: 'Falsch' });
      return { reason: /^live row change refused; the live state stays as it was: live_state: .*notice_level/ };
    },
    async stop() {
      await server.stop();
      await fake.close();
      rmSync(snapshots, { recursive: true, force: true });
    },
  };
}

/** A tab in `lng` on a phone, hydrated, its document marked so that a reload would show (isSameDocument). */
export async function openTab(browsers: Browsers, server: RunningServer, lng: Language): Promise<Visitor> {
  const visitor = await browsers.visitor(server.url, { language: lng, viewport: { width: 390, height: 844 } });
  await visitor.goto('/');
  await waitForHydration(visitor);
  await visitor.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  return visitor;
}

/** Whether the tab still shows the document openTab marked: it followed every change in place. */
export function isSameDocument(visitor: Visitor): Promise<boolean> {
  return visitor.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);
}
