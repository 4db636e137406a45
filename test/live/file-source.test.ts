import {
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileLiveSource, type FileLiveSourceOptions } from '../../server/live/file-source.ts';
import type { LiveSource } from '../../server/live/live-source.ts';
import { liveRulesOf, liveRulesOfLanguages } from '../../server/content/live-rules.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { createMetrics } from '../../server/ops/metrics.ts';
import type { LiveState } from '../../shared/live-state.ts';

/**
 * The live file is read at start and again whenever it changes, without a restart: through the
 * folder's events (a ConfigMap's symlink swap included) and a timer. A change the check refuses
 * leaves the last good state, and is logged and counted once.
 */

const notice = (de: string, level = 'info') => JSON.stringify({ notice: { level, text: { de } } });
const HOUR_MS = 3_600_000;

let sources: LiveSource[] = [];
afterEach(() => {
  sources.forEach((source) => source.close());
  sources = [];
  vi.useRealTimers();
});

function setUp(overrides: Partial<FileLiveSourceOptions> = {}, folder = mkdtempSync(path.join(tmpdir(), 'live-'))) {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const metrics = createMetrics();
  const options: FileLiveSourceOptions = {
    path: path.join(folder, 'live.json'),
    shown: 'live.json',
    rules: liveRulesOfLanguages(['de', 'en', 'es']),
    checkEveryMs: HOUR_MS,
    quietMs: 20,
    logger: pino({ level: 'info' }, sink),
    observer: metrics.liveObserver,
    ...overrides,
  };
  const start = () => {
    const source = fileLiveSource(options);
    sources.push(source);
    return source;
  };
  const refusals = async () =>
    (await metrics.registry.getSingleMetric('live_changes_refused_total')!.get()).values.find(
      (value) => value.labels.source === 'file',
    )?.value ?? 0;
  return { folder, file: options.path, logs, start, refusals };
}

const noticeOf = async (source: LiveSource) => (await source.get()).notice?.text.de ?? null;

/** Waits (on the real clock) until the source's notice is `expected`. */
async function until(source: LiveSource, expected: string | null): Promise<LiveState> {
  const deadline = Date.now() + 5000;
  while ((await noticeOf(source)) !== expected) {
    if (Date.now() > deadline) throw new Error(`the notice stayed ${await noticeOf(source)}, not ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return source.get();
}

describe('the live file at start', () => {
  it('without a file: no notice, no status', async () => {
    const { start } = setUp();
    expect(await start().get()).toMatchObject({ notice: null, status: null, version: expect.any(String) });
  });

  it('with a file: its notice and status, versioned by what they say', async () => {
    const { file, start } = setUp();
    writeFileSync(
      file,
      JSON.stringify({ notice: { level: 'warning', text: { de: 'Später' } }, status: 'EventPostponed' }),
    );
    const first = await start().get();
    expect(first).toMatchObject({ notice: { level: 'warning', text: { de: 'Später' } }, status: 'EventPostponed' });
    // The same words give the same version, wherever and whenever they are read.
    const again = await setUp({ path: file }).start().get();
    expect(again.version).toBe(first.version);
  });

  it('broken: no live changes, the refusal logged with the file, the line and the field and counted; the next good one is taken', async () => {
    const { file, start, logs, refusals } = setUp();
    writeFileSync(file, '{\n  "status": "EventDelayed"\n}');
    const source = start();
    expect(await source.get()).toMatchObject({ notice: null, status: null });
    expect(logs).toEqual([
      expect.objectContaining({
        level: 40,
        file: 'live.json',
        msg: expect.stringMatching(
          /^live file refused at start; no live changes until it is fixed: live\.json:2: status "EventDelayed" must be one of/,
        ),
      }),
    ]);
    expect(await refusals()).toBe(1);
    writeFileSync(file, notice('Gut'));
    await until(source, 'Gut');
  });
});

describe('the log line confirming a save', () => {
  it('names what the page shows: the notice, its languages, the status, the start and end on the event’s clock, the stream', async () => {
    const { file, start, logs } = setUp({ rules: liveRulesOf(loadContent(DEFAULT_CONTENT_PATH)) });
    const source = start();
    writeFileSync(
      file,
      JSON.stringify({ notice: { level: 'warning', text: { de: 'Später', en: 'Later' } }, startTime: '18:15' }),
    );
    await until(source, 'Später');
    expect(logs.find((line) => line.msg === 'live state changed')).toMatchObject({
      file: 'live.json',
      notice: 'warning',
      noticeLanguages: ['de', 'en'],
      // A moved start of a scheduled event: rescheduled, at the new time; the end the content file's.
      status: 'EventRescheduled',
      start: '2027-03-18T18:15',
      end: '2027-03-18T21:30',
      stream: null,
    });
  });

  it('says a save that changes nothing the page shows was read, a good file put back after a refused one too', async () => {
    const { file, start, logs } = setUp();
    const source = start();
    writeFileSync(file, notice('Eins'));
    await until(source, 'Eins');
    // The same notice, written otherwise.
    writeFileSync(file, `${notice('Eins')}\n\n`);
    await expect.poll(() => logs.length).toBe(2);
    writeFileSync(file, '{ "notice": ');
    await expect.poll(() => logs.length).toBe(3);
    writeFileSync(file, notice('Eins'));
    await expect.poll(() => logs.length).toBe(4);
    expect(logs.map((line) => [line.level, line.msg])).toEqual([
      [30, 'live state changed'],
      [30, 'live file read; nothing the page shows changed'],
      [40, expect.stringMatching(/^live file change refused; the live state stays as it was: /)],
      [30, 'live file read; nothing the page shows changed'],
    ]);
    expect(logs[3]).toMatchObject({ notice: 'info', noticeLanguages: ['de'], status: null, stream: null });
  });
});

describe('a change of the live file while the server runs', () => {
  it('is seen through the folder’s events, and a removed file takes the notice down', async () => {
    const { file, start, logs } = setUp();
    const source = start();
    writeFileSync(file, notice('Eins'));
    await until(source, 'Eins');
    writeFileSync(file, notice('Zwei'));
    await until(source, 'Zwei');
    unlinkSync(file);
    expect(await until(source, null)).toMatchObject({ notice: null, status: null });
    expect(logs.map((line) => line.msg)).toEqual([
      'live state changed',
      'live state changed',
      'live file removed: no live changes',
    ]);
  });

  it('is seen when replaced as a Kubernetes ConfigMap is: the kubelet swaps the ..data symlink', async () => {
    const mount = mkdtempSync(path.join(tmpdir(), 'configmap-'));
    // The kubelet's atomic writer: live.json -> ..data/live.json, ..data -> a timestamped folder.
    const version = (name: string, text: string) => {
      mkdirSync(path.join(mount, name));
      writeFileSync(path.join(mount, name, 'live.json'), text);
    };
    version('..2026_11_26_08_00_00.1', notice('Vorher'));
    symlinkSync('..2026_11_26_08_00_00.1', path.join(mount, '..data'));
    symlinkSync('..data/live.json', path.join(mount, 'live.json'));
    const { start } = setUp({}, mount);
    const source = start();
    expect(await noticeOf(source)).toBe('Vorher');

    version('..2026_11_26_08_01_00.2', notice('Nachher'));
    symlinkSync('..2026_11_26_08_01_00.2', path.join(mount, '..data_tmp'));
    renameSync(path.join(mount, '..data_tmp'), path.join(mount, '..data'));
    rmSync(path.join(mount, '..2026_11_26_08_00_00.1'), { recursive: true });
    await until(source, 'Nachher');
  });

  it('is taken whole when the file is replaced while it is read: never half of one and half of the other', async () => {
    const { file, folder, start } = setUp({ quietMs: 0 });
    writeFileSync(file, notice('A'.repeat(200)));
    const source = start();
    const seen = new Set<string | null>();
    const reading = (async () => {
      for (let i = 0; i < 200; i++) {
        seen.add(await noticeOf(source));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let i = 0; i < 100; i++) {
      const next = path.join(folder, `next-${i}.json`);
      writeFileSync(next, notice((i % 2 ? 'A' : 'B').repeat(200)));
      renameSync(next, file);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await reading;
    writeFileSync(file, notice('end'));
    await until(source, 'end');
    expect([...seen].every((text) => text === 'A'.repeat(200) || text === 'B'.repeat(200))).toBe(true);
  });

  it('refuses a half-written save, keeping the last good state, and takes it once the save is whole', async () => {
    const { file, start, logs, refusals } = setUp();
    writeFileSync(file, notice('Gut'));
    const source = start();
    const whole = notice('Besser');
    writeFileSync(file, whole.slice(0, 25));
    await vi.waitFor(() => expect(logs).toHaveLength(1));
    expect(await noticeOf(source)).toBe('Gut');
    expect(logs[0]).toMatchObject({
      level: 40,
      file: 'live.json',
      problems: expect.arrayContaining([expect.stringMatching(/^live\.json:1: not valid JSON here/)]),
    });
    expect(logs[0]!.msg).toMatch(/^live file change refused; the live state stays as it was: live\.json:1: /);
    expect(await refusals()).toBe(1);
    writeFileSync(file, whole);
    await until(source, 'Besser');
  });
});

describe('the time a live state is dated', () => {
  it('is the file’s modification time, or for a removed file its folder’s; never before the state it follows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(Date.parse('2027-03-18T09:00:00Z'));
    const { file, start } = setUp({ folderEvents: false, checkEveryMs: 1000 });
    writeFileSync(file, notice('Eins'));
    utimesSync(file, new Date('2027-03-18T08:00:00Z'), new Date('2027-03-18T08:00:00Z'));
    const source = start();
    expect((await source.get()).updated).toBe('2027-03-18T08:00:00.000Z');

    writeFileSync(file, notice('Zwei'));
    utimesSync(file, new Date('2027-03-18T08:30:00Z'), new Date('2027-03-18T08:30:00Z'));
    vi.advanceTimersByTime(1000);
    expect((await source.get()).updated).toBe('2027-03-18T08:30:00.000Z');

    // A copy that kept an older time (cp -p) still follows the state it replaces.
    writeFileSync(file, notice('Drei'));
    utimesSync(file, new Date('2027-03-18T07:00:00Z'), new Date('2027-03-18T07:00:00Z'));
    vi.advanceTimersByTime(1000);
    expect(await source.get()).toMatchObject({ notice: { text: { de: 'Drei' } }, updated: '2027-03-18T08:30:00.001Z' });

    // The removal set the folder's time.
    unlinkSync(file);
    utimesSync(path.dirname(file), new Date('2027-03-18T08:45:00Z'), new Date('2027-03-18T08:45:00Z'));
    vi.advanceTimersByTime(1000);
    expect(await source.get()).toMatchObject({ notice: null, updated: '2027-03-18T08:45:00.000Z' });
  });

  it('is the folder’s time where there is no file at the start: the same at every start, whatever the clock says', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { file, start } = setUp();
    utimesSync(path.dirname(file), new Date('2027-03-18T07:00:00Z'), new Date('2027-03-18T07:00:00Z'));
    vi.setSystemTime(Date.parse('2027-03-18T09:00:00Z'));
    expect((await start().get()).updated).toBe('2027-03-18T07:00:00.000Z');
    vi.setSystemTime(Date.parse('2027-03-18T10:00:00Z'));
    expect((await start().get()).updated).toBe('2027-03-18T07:00:00.000Z');
  });
});

describe('the timer beside the folder’s events', () => {
  it('sees a change no event told of, at the next check', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { file, start } = setUp({ folderEvents: false, checkEveryMs: 5000 });
    writeFileSync(file, notice('Alt'));
    const source = start();
    writeFileSync(file, notice('Neu'));
    vi.advanceTimersByTime(4999);
    expect(await noticeOf(source)).toBe('Alt');
    vi.advanceTimersByTime(1);
    expect(await noticeOf(source)).toBe('Neu');
  });

  it('logs and counts a refused change once, however often it is read again, and once more for another', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { file, start, logs, refusals } = setUp({ folderEvents: false, checkEveryMs: 1000 });
    writeFileSync(file, notice('Gut'));
    const source = start();
    const before = await source.get();
    writeFileSync(file, JSON.stringify({ staus: 'EventCancelled' }));
    vi.advanceTimersByTime(10_000);
    expect(await refusals()).toBe(1);
    expect(logs.map((line) => line.msg)).toEqual([
      'live file change refused; the live state stays as it was: live.json:1: `staus` is not a field; did you mean `status`?',
    ]);
    writeFileSync(file, '');
    vi.advanceTimersByTime(10_000);
    expect(await refusals()).toBe(2);
    expect(logs.at(-1)!.msg).toBe(
      'live file change refused; the live state stays as it was: live.json:1: not valid JSON: the file is empty',
    );
    expect(await source.get()).toBe(before);
  });

  it('warns once of a notice for a language not offered, and shows the rest', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const { file, start, logs, refusals } = setUp({ folderEvents: false, checkEveryMs: 1000 });
    const source = start();
    writeFileSync(file, JSON.stringify({ notice: { level: 'info', text: { de: 'Hallo', fr: 'Salut' } } }));
    vi.advanceTimersByTime(5000);
    expect((await source.get()).notice?.text).toEqual({ de: 'Hallo' });
    expect(logs.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
      'live.json:1: warning: notice.text.fr is for a language that the content file does not offer (de, en, es); it is left out',
    ]);
    expect(await refusals()).toBe(0);
  });
});
