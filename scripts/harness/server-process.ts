import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../../server/config/environment.ts';
import { APP_ROOT } from '../../server/config/paths.ts';

/**
 * What happens to the server's stdout once it is listening: every line read and kept (the
 * default), read into nothing (a benchmark's access log), no longer read at all (a stalled log
 * collector), or its reading end closed (a collector that went away).
 */
export type StdoutAfterStart = 'keep' | 'discard' | 'stall' | 'close';

export interface RunningServer {
  url: string;
  /** Where the server's /metrics listener is, when it reported one. */
  metricsUrl?: string;
  child: ChildProcess;
  /** Every log line the server has written so far, parsed. */
  logs: Record<string, unknown>[];
  /** What the process has written to stderr so far. */
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built server (dist/server/index.js) on a free loopback port, as operators run it.
 * `nodeArgs` go to Node before the script (a test may preload a module with --import).
 */
export async function startServer(
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
  options?: { stdout?: StdoutAfterStart },
): Promise<RunningServer> {
  // A photo folder of its own, removed when it stops, unless the caller shares one between servers.
  const photos = env.PHOTOS_PATH ? null : mkdtempSync(path.join(os.tmpdir(), 'landing-photos-'));
  const server = await startListening(
    [...nodeArgs, path.join(APP_ROOT, 'dist/server/index.js')],
    {
      PORT: '0',
      // Free ports of its own: tests and the benchmarks start several servers at once.
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...(photos ? { PHOTOS_PATH: photos } : {}),
      ...env,
    },
    options,
  ).catch((error: unknown) => {
    if (photos) rmSync(photos, { recursive: true, force: true });
    throw error;
  });
  if (photos) server.child.once('exit', () => rmSync(photos, { recursive: true, force: true }));
  return server;
}

/**
 * Runs `node <args>` and waits for its JSON log line `{"msg":"listening","port":N}`.
 * Rejects with the process's stderr if it exits first.
 */
export async function startListening(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  { stdout = 'keep' }: { stdout?: StdoutAfterStart } = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, args, {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killWithTestProcess(child);
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const { port, metricsPort } = await new Promise<{ port: number; metricsPort?: number }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'listening') {
          resolve({
            port: entry.port as number,
            ...(typeof entry.metricsPort === 'number' ? { metricsPort: entry.metricsPort } : {}),
          });
          if (stdout !== 'keep') lines.close(); // this pauses stdout
          // A benchmark's access log is drained unread, so reading it never slows the server.
          if (stdout === 'discard') child.stdout!.on('data', () => {}).resume();
          if (stdout === 'close') child.stdout!.destroy();
        }
      } catch {
        logs.push({ raw: line });
      }
    });
    void exited.then((code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr.trim()}`)));
  });

  return {
    url: `http://127.0.0.1:${port}`,
    ...(metricsPort === undefined ? {} : { metricsUrl: `http://127.0.0.1:${metricsPort}` }),
    child,
    logs,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const boundMs = Number(env.SHUTDOWN_TIMEOUT_MS ?? DEFAULT_SHUTDOWN_TIMEOUT_MS) + STOP_GRACE_MS;
      let timer: NodeJS.Timeout | undefined;
      const gone = await Promise.race([
        exited.then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), boundMs))),
      ]);
      clearTimeout(timer);
      if (gone) return exited;
      // The server promises to be gone by now: what it was doing is kept in the failure, then it is killed.
      const report = stillRunningReport(child, logs, stderr);
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the server did not exit within ${boundMs} ms of ${signal}; ${report}`);
    },
  };
}

/** Beyond SHUTDOWN_TIMEOUT_MS: the log's settling, the watchdog's grace, a busy machine. */
const STOP_GRACE_MS = 5000;

/**
 * What tells a hung server from a test process that never heard of its end: the process's state
 * as the kernel has it (a zombie has exited, unreaped), the last thing it logged (a "stopped"
 * means it hung in its exit, after the graceful stop), what each of its threads waits on, and
 * its last log lines and stderr. The first line says the most, as a summary shows only that.
 */
function stillRunningReport(child: ChildProcess, logs: readonly Record<string, unknown>[], stderr: string): string {
  const lastLogged = [...logs].reverse().find((entry) => typeof entry.msg === 'string')?.msg;
  const lastLines = logs
    .slice(-10)
    .map((entry) => JSON.stringify(entry))
    .join('\n');
  return [
    `pid ${child.pid}, state ${processState(`/proc/${child.pid}`)}, last logged ${JSON.stringify(lastLogged ?? null)}`,
    `its threads:\n${threadStates(child.pid!)}`,
    `its last log lines:\n${lastLines}`,
    `its stderr:\n${stderr.slice(-2000)}`,
  ].join('\n');
}

function processState(procDirectory: string): string {
  try {
    return /^State:\s*(.*)$/m.exec(readFileSync(`${procDirectory}/status`, 'utf8'))?.[1] ?? 'unknown';
  } catch (error) {
    return `not readable (${(error as Error).message})`;
  }
}

/** Each thread's name, state and the kernel function it sleeps in (main thread first). */
function threadStates(pid: number): string {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch (error) {
    return `not readable (${(error as Error).message})`;
  }
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return '?';
    }
  };
  return tids
    .map((tid) => {
      const task = `/proc/${pid}/task/${tid}`;
      return `${tid} ${read(`${task}/comm`)}: ${processState(task)}, in ${read(`${task}/wchan`)}`;
    })
    .join('\n');
}

export interface ExitedServer {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built server with `env` until it exits by itself (a start-up error), as an operator would see it. */
export function runUntilExit(env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<ExitedServer> {
  const child = spawn(process.execPath, [path.join(APP_ROOT, 'dist/server/index.js')], {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH, PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killWithTestProcess(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/**
 * A server a failed test never stopped would outlive the test run (it no longer dies of its
 * closed stdout): it is killed when the test process exits.
 */
function killWithTestProcess(child: ChildProcess): void {
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
}

/** Waits until `url` answers 200 (a server's /readyz once it takes visitors), or throws after `timeoutMs`. */
export async function waitUntilServing(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
