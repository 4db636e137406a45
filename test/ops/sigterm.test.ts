import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { openConnection, type RawConnection } from '../helpers/raw-http.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';

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

describe('SIGTERM to a server whose main thread is then held', () => {
  it('still ends within SHUTDOWN_TIMEOUT_MS + 1 s: a watchdog thread kills it', async () => {
    // Preloaded: right after the shutdown begins, the main thread waits on a lock nobody releases,
    // as a synchronous log flush into a full pipe would.
    const holdAfterSignal = [
      '--import',
      'data:text/javascript,process.on("SIGTERM", () => setImmediate(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)))',
    ];
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '1000' }, holdAfterSignal);
    // This process learns of the exit only when its own event loop gets to it: on a busy machine
    // that comes late, and the lateness is this process's, not the server's.
    const ownLateness = monitorEventLoopDelay({ resolution: 10 });
    ownLateness.enable();
    const signalled = Date.now();
    try {
      const killedBy = new Promise((resolve) => server.child.once('exit', (_code, signal) => resolve(signal)));
      await server.stop('SIGTERM');
      expect(await killedBy).toBe('SIGKILL');
      ownLateness.disable();
      expect(Date.now() - signalled).toBeLessThan(1000 + 1000 + ownLateness.max / 1e6);
    } finally {
      server.child.kill('SIGKILL');
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
