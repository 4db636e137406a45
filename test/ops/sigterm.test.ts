import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { processesWhere } from '../helpers/processes.ts';
import { openConnection, type RawConnection } from '../helpers/raw-http.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LOG_SETTLE_MS, WATCHDOG_GRACE_MS } from '../../server/ops/process-exit.ts';

const SHUTDOWN_TIMEOUT_MS = 5000;
const { script } = readClientManifest(CLIENT_BUILD_DIR);

const waitFor = async (condition: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** A keep-alive request whose headers are sent up to, but without, the blank line that ends them. */
function startedRequest(server: RunningServer, path: string, headers: string[] = []): RawConnection {
  const connection = openConnection(Number(new URL(server.url).port));
  connection.send([`GET ${path} HTTP/1.1`, 'Host: localhost', 'Connection: keep-alive', ...headers, ''].join('\r\n'));
  return connection;
}

describe('SIGTERM to the running server', () => {
  it('finishes every request in flight, fails readiness, closes idle connections and exits 0 in time', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    const port = Number(new URL(server.url).port);

    // Idle keep-alive connections, each having served a request.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    await Promise.all(
      [1, 2, 3, 4].map(
        () =>
          new Promise((resolve, reject) =>
            http.get(`${server.url}/healthz`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject),
          ),
      ),
    );
    const idle = Object.values(agent.freeSockets).flat();
    expect(idle).toHaveLength(4);
    const idleClosed = idle.map((socket) => new Promise<boolean>((resolve) => socket!.once('close', resolve)));

    // Requests under way: their last header line arrives only after the signal.
    const inFlight = [
      ...['/', '/impressum', '/?lng=es', '/no/such/page'].map((path) => ({
        path,
        connection: startedRequest(server, path),
      })),
      { path: script, connection: startedRequest(server, script, ['Accept-Encoding: br']) },
      { path: '/locales/en/translation.json', connection: startedRequest(server, '/locales/en/translation.json') },
    ];
    const readiness = startedRequest(server, '/readyz');
    // And a burst of complete requests on their own connections, answered around the signal.
    const burst = Array.from({ length: 30 }, (_, i) => {
      const connection = openConnection(port);
      connection.send(`GET /${i % 2 ? 'impressum' : ''} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      return connection;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalled = Date.now();
    const exitCode = server.stop('SIGTERM');
    await waitFor(() => server.logs.some((line) => line.msg === 'shutting down'));

    const closedWithoutError = await Promise.all(idleClosed);
    expect(closedWithoutError).toEqual([false, false, false, false]);
    await waitFor(() => server.logs.some((line) => line.msg === 'no longer accepting connections'));
    await expect(
      new Promise((resolve, reject) => http.get(`${server.url}/`, { agent: false }, resolve).on('error', reject)),
    ).rejects.toThrow(/ECONNREFUSED/);

    for (const { connection } of [...inFlight, { connection: readiness }]) connection.send('\r\n');
    expect((await readiness.answer).status).toBe(503);
    for (const { path, connection } of inFlight) {
      const answer = await connection.answer;
      expect(answer.status, path).toBe(path === '/no/such/page' ? 404 : 200);
      expect(answer.headers.connection, path).toBe('close');
      expect(answer.body.length, path).toBe(Number(answer.headers['content-length']));
    }
    for (const connection of burst) {
      const answer = await connection.answer;
      expect(answer.status).toBe(200);
      expect(answer.body).toMatch(/<\/html>$/);
    }

    expect(await exitCode).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(server.logs.map((line) => line.msg)).toContain('stopped');
    agent.destroy();
  });

  it('also stops gracefully on SIGINT', async () => {
    const server = await startServer();
    expect(await server.stop('SIGINT')).toBe(0);
  });

  it('cuts a request that does not finish once SHUTDOWN_TIMEOUT_MS has passed, and exits 1', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '500' });
    const stuck = startedRequest(server, '/');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signalled = Date.now();
    expect(await server.stop('SIGTERM')).toBe(1);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(450);
    expect(Date.now() - signalled).toBeLessThan(2500);
    await expect(stuck.answer).rejects.toThrow();
  });
});

/** The watchdog processes started by the server with this pid, found by their command line. */
function watchdogsOf(serverPid: number): number[] {
  return processesWhere((args) => !!args.at(-2)?.includes('process.kill(parent') && args.at(-1) === String(serverPid));
}

describe('the exit watchdog', () => {
  it('runs while the server stops, and ends with it, long before its own deadline', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '20000' });
    const serverPid = server.child.pid!;
    // A request in flight keeps the stop going until it is answered.
    const inFlight = startedRequest(server, '/');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watchdogsOf(serverPid)).toEqual([]);
    server.child.kill('SIGTERM');
    await waitFor(() => watchdogsOf(serverPid).length === 1, 2500);
    inFlight.send('\r\n');
    await inFlight.answer;
    expect(await server.stop()).toBe(0);
    await waitFor(() => watchdogsOf(serverPid).length === 0, 2000);
  });
});

/**
 * Sends SIGTERM and waits for the exit; returns the signal that ended the server and how long
 * that took, less this process's own lateness: on a busy machine this process learns of the exit
 * only when its event loop gets to it.
 */
async function stopTimed(server: RunningServer): Promise<{ killedBy: NodeJS.Signals | null; ms: number }> {
  const ownLateness = monitorEventLoopDelay({ resolution: 10 });
  ownLateness.enable();
  const signalled = Date.now();
  const killedBy = new Promise<NodeJS.Signals | null>((resolve) =>
    server.child.once('exit', (_code, signal) => resolve(signal)),
  );
  await server.stop('SIGTERM');
  const ms = Date.now() - signalled;
  ownLateness.disable();
  return { killedBy: await killedBy, ms: ms - ownLateness.max / 1e6 };
}

describe('SIGTERM to a server that then cannot end by itself', () => {
  it('still ends within SHUTDOWN_TIMEOUT_MS + 1 s when its main thread is held: a watchdog kills it', async () => {
    // Preloaded: right after the shutdown begins, the main thread waits on a lock nobody releases,
    // as a synchronous log flush into a full pipe would.
    const holdAfterSignal = [
      '--import',
      'data:text/javascript,process.on("SIGTERM", () => setImmediate(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)))',
    ];
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '1000' }, holdAfterSignal);
    try {
      const { killedBy, ms } = await stopTimed(server);
      expect(killedBy).toBe('SIGKILL');
      expect(ms).toBeLessThan(1000 + 1000);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('still ends within 1.5 s of its exit when Node’s own teardown hangs: the watchdog outlives the exit', async () => {
    // Preloaded: a thread of libuv's pool waits in open() on a FIFO nobody writes to. process.exit()
    // stops the worker threads, then joins that pool, and waits for ever, as it does when V8's
    // platform deadlocks at exit (nodejs/node#54918).
    const folder = mkdtempSync(path.join(os.tmpdir(), 'held-exit-'));
    const fifo = path.join(folder, 'nobody-writes');
    execFileSync('mkfifo', [fifo]);
    const holdThreadPool = [
      '--import',
      `data:text/javascript,import { open } from "node:fs"; open(${JSON.stringify(fifo)}, "r", () => {})`,
    ];
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '5000' }, holdThreadPool);
    try {
      const { killedBy, ms } = await stopTimed(server);
      // The graceful stop itself finished: only the exit after it hung.
      expect(server.logs.map((line) => line.msg)).toContain('stopped');
      expect(killedBy).toBe('SIGKILL');
      expect(ms).toBeLessThan(LOG_SETTLE_MS + WATCHDOG_GRACE_MS + 1000);
    } finally {
      server.child.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('an uncaught error in the running server', () => {
  // Preloaded into the server's process: a signal the test sends makes it fail the way a bug would.
  const failOnSignal = (failure: string) => [
    '--import',
    `data:text/javascript,process.on('SIGUSR2', () => { ${failure} })`,
  ];

  it.each([
    ['a thrown error', "throw new Error('deliberate failure')", 'uncaughtException'],
    ['an unhandled rejection', "Promise.reject(new Error('deliberate failure'))", 'unhandledRejection'],
  ])('(%s) is logged, and the process exits 1', async (_name, failure, origin) => {
    const server = await startServer({}, failOnSignal(failure));
    expect(await server.stop('SIGUSR2')).toBe(1);
    const fatal = server.logs.find((line) => line.level === 60);
    expect(fatal).toMatchObject({ msg: 'uncaught error: exiting', origin });
    expect((fatal!.err as { message: string }).message).toBe('deliberate failure');
  });
});
