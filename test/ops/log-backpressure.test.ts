import http from 'node:http';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { imageEnv } from '../../scripts/harness/dockerfile.ts';
import { openConnection } from '../helpers/raw-http.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';

const SHUTDOWN_TIMEOUT_MS = 2000;
/** The image's memory settings: a log that queued without limit would soon run out of heap under them. */
const { NODE_OPTIONS, MALLOC_ARENA_MAX } = imageEnv();
const LOG_BUFFER_BYTES = 64 * 1024;
// A long path makes a long access-log line (the log keeps 1,024 characters of it): the pipe and
// the buffer fill within a few hundred requests.
const LONG_PATH = `/${'x'.repeat(1100)}`;

interface LoadReport {
  answered: number;
  statuses: Map<number, number>;
  errors: number;
  /** Answers completed in each second of the run. */
  perSlice: number[];
}

/** `concurrency` keep-alive clients asking for `paths` in turn for `ms`. */
async function load(url: string, paths: string[], ms: number, concurrency = 16): Promise<LoadReport> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const started = Date.now();
  const report: LoadReport = { answered: 0, statuses: new Map(), errors: 0, perSlice: [] };
  const ask = (path: string) =>
    new Promise<void>((resolve) => {
      http
        .get(`${url}${path}`, { agent }, (res) => {
          res.resume().on('end', () => {
            report.answered += 1;
            report.statuses.set(res.statusCode!, (report.statuses.get(res.statusCode!) ?? 0) + 1);
            const slice = Math.floor((Date.now() - started) / 1000);
            report.perSlice[slice] = (report.perSlice[slice] ?? 0) + 1;
            resolve();
          });
        })
        .on('error', () => {
          report.errors += 1;
          resolve();
        });
    });
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      for (let i = client; Date.now() - started < ms; i++) await ask(paths[i % paths.length]!);
    }),
  );
  agent.destroy();
  return report;
}

const until = async (condition: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Samples the process's resident memory until stopped; returns the peak in MB. */
function watchPeak(pid: number): () => number {
  let peak = residentMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

async function droppedLines(server: RunningServer): Promise<number> {
  const metrics = await (await fetch(`${server.metricsUrl}/metrics`)).text();
  return Number(/^log_lines_dropped_total (\d+)$/m.exec(metrics)![1]);
}

async function stopTimed(server: RunningServer): Promise<{ code: number | null; ms: number }> {
  const signalled = Date.now();
  const code = await server.stop('SIGTERM');
  return { code, ms: Date.now() - signalled };
}

// A server whose test failed before it was stopped would otherwise live on: its stdout is no longer read.
const servers: RunningServer[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.child.kill('SIGKILL');
});

/** Requests answered while warming up: their log lines may be dropped too, if the pipe is full by then. */
let warmUpAnswered = 0;

async function start(stdout: 'stall' | 'close'): Promise<RunningServer> {
  const server = await startServer(
    {
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      LOG_BUFFER_BYTES: String(LOG_BUFFER_BYTES),
      NODE_OPTIONS,
      MALLOC_ARENA_MAX,
    },
    [],
    { stdout },
  );
  servers.push(server);
  // Warm: the pages are rendered once and cached before the measured load.
  warmUpAnswered = (await load(server.url, ['/', '/impressum', LONG_PATH], 300, 2)).answered;
  return server;
}

/** A request still in flight (its headers never end): it keeps a stopping server up until SHUTDOWN_TIMEOUT_MS. */
async function holdARequestOpen(server: RunningServer): Promise<void> {
  const stuck = openConnection(Number(new URL(server.url).port));
  stuck.send('GET / HTTP/1.1\r\nHost: localhost\r\n');
  stuck.answer.catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/**
 * Loads the server until its log backlog stays put: a line logged after a quiet moment is
 * dropped. A backlog may drain after a load: on a loaded machine this process reads its end of
 * the pipe late, into its own stream's buffer, and can take all that was waiting once the load ends.
 */
async function fillBacklogForGood(server: RunningServer): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await load(server.url, [LONG_PATH], 500);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = await droppedLines(server);
    await (await fetch(`${server.url}${LONG_PATH}`)).text();
    if ((await droppedLines(server)) > before) return;
  }
  throw new Error('the log backlog drained after each of 10 loads');
}

/**
 * Resolves once the server has taken SIGTERM: its handler closes the metrics port and logs
 * "shutting down" in one go, so a refused connection there means the line has been written or queued.
 */
async function untilSignalTaken(server: RunningServer): Promise<void> {
  const port = Number(new URL(server.metricsUrl!).port);
  const refused = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
  const deadline = Date.now() + 5000;
  while (!(await refused())) {
    if (Date.now() > deadline) throw new Error('the server did not take SIGTERM within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function expectStillAnswering(report: LoadReport) {
  expect(report.errors).toBe(0);
  expect([...report.statuses.keys()].sort()).toEqual([200, 404]);
  // Answers kept coming to the end: no second of the run went without any.
  expect(report.perSlice.length).toBeGreaterThanOrEqual(4);
  for (const [slice, answered] of report.perSlice.entries()) expect(answered ?? 0, `slice ${slice}`).toBeGreaterThan(0);
}

describe('the server with stdout a pipe nobody reads', () => {
  it('keeps answering with bounded memory, counts the lines it drops, reports them once the reader is back, and stops in time', async () => {
    const server = await start('stall');
    const pid = server.child.pid!;
    const before = residentMb(pid);
    const peak = watchPeak(pid);
    const report = await load(server.url, ['/', LONG_PATH, '/impressum', LONG_PATH], 3500);
    const peakMb = peak();

    expectStillAnswering(report);
    // Only what fits in the pipe, the reader's own buffer and LOG_BUFFER_BYTES got through: the rest was dropped.
    const dropped = await droppedLines(server);
    expect(dropped).toBeGreaterThan(report.answered - 1000);
    expect(dropped).toBeLessThanOrEqual(report.answered + warmUpAnswered);
    expect(peakMb - before).toBeLessThan(60);

    // The reader takes lines again: one warning says how many were dropped.
    const lines: Record<string, unknown>[] = [];
    createInterface({ input: server.child.stdout! }).on('line', (line) => lines.push(JSON.parse(line)));
    const warnings = () => lines.filter((line) => line.msg === 'log output was blocked: lines were dropped');
    const reported = () => warnings().reduce((sum, line) => sum + (line.droppedLines as number), 0);
    await until(() => reported() >= dropped);
    // One line each time a backlog with drops was written (a short burst before the stall may have made one).
    expect(warnings().length).toBeLessThanOrEqual(3);
    for (const warning of warnings()) expect(warning).toMatchObject({ level: 40 });
    expect(reported()).toBe(await droppedLines(server));

    const { code, ms } = await stopTimed(server);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1000);
  });

  it('stops within SHUTDOWN_TIMEOUT_MS + 1 s while the log cannot be written', async () => {
    const server = await start('stall');
    const report = await load(server.url, [LONG_PATH], 1500);
    expect(report.errors).toBe(0);
    await fillBacklogForGood(server);
    await holdARequestOpen(server);
    const { code, ms } = await stopTimed(server);
    expect(code).toBe(1);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1000);
  });

  it('writes the lines about itself ahead of the backlog once the reader takes lines again', async () => {
    const server = await start('stall');
    await fillBacklogForGood(server);
    await holdARequestOpen(server);
    const exited = server.stop('SIGTERM');
    // Read only once the server has taken the signal: on a loaded machine it may handle it after
    // a reader started at a fixed delay has taken the whole backlog.
    await untilSignalTaken(server);

    const lines: Record<string, unknown>[] = [];
    createInterface({ input: server.child.stdout! }).on('line', (line) => lines.push(JSON.parse(line)));
    expect(await exited).toBe(1);
    const shuttingDown = lines.findIndex((line) => line.msg === 'shutting down');
    expect(shuttingDown).toBeGreaterThan(0);
    // What was already in the pipe came first; buffered access-log lines came after it (how many
    // depends on how fast the reader takes them: the urgent line races the backlog's next chunk
    // for the room the reader makes). Queued like any other line, it would come after them all.
    const accessLinesAfter = lines.slice(shuttingDown).filter((line) => line.msg === 'request completed');
    expect(accessLinesAfter.length).toBeGreaterThan(0);
  });
});

describe('the server whose log reader has gone away', () => {
  it('keeps answering with bounded memory, counts every line it cannot write, and stops in time', async () => {
    const server = await start('close');
    const pid = server.child.pid!;
    const before = residentMb(pid);
    const peak = watchPeak(pid);
    const report = await load(server.url, ['/', LONG_PATH, '/impressum', LONG_PATH], 3500);
    const peakMb = peak();

    expectStillAnswering(report);
    const dropped = await droppedLines(server);
    expect(dropped).toBeGreaterThan(report.answered - 1000);
    expect(peakMb - before).toBeLessThan(60);
    // Still counting: one more visitor's request is logged, and dropped.
    await (await fetch(`${server.url}/impressum`)).text();
    expect(await droppedLines(server)).toBeGreaterThan(dropped);

    const { code, ms } = await stopTimed(server);
    expect(code).toBe(0);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1000);
  });
});
