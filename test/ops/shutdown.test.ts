import { EventEmitter } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config/environment.ts';
import { createHttpServer } from '../../server/ops/http-server.ts';
import { createReadiness } from '../../server/ops/health.ts';
import { exitOnUncaughtError, gracefulShutdown } from '../../server/ops/shutdown.ts';
import { fixedHeroAssets, type LabelledAssets, testApp } from '../helpers/app.ts';
import { openConnection, type RawConnection } from '../helpers/raw-http.ts';

/** The real app in a real HTTP server, whose page renders wait for `release()` (a slow backend). */
async function runningApp(timeoutMs = 5000) {
  let release!: () => void;
  const backendAnswered = new Promise<void>((resolve) => (release = resolve));
  const assets: LabelledAssets = { heroSlides: [], logoUrl: null };
  const waiting = { renders: 0 };
  const heroSource = {
    ...fixedHeroAssets(assets),
    get: () => {
      waiting.renders += 1;
      return backendAnswered.then(() => assets);
    },
  };
  const { app, deps, logLines } = await testApp({ heroSource });
  const server = createHttpServer(app, deps.config);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const exit = vi.fn<(code: number) => void>();
  const shutdown = gracefulShutdown({ server, readiness: deps.readiness, logger: deps.logger, timeoutMs, exit });
  const { port } = server.address() as AddressInfo;
  return { server, port, shutdown, exit, release, waiting, readiness: deps.readiness, logLines };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, path: string, agent?: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

const until = async (condition: () => boolean, ms = 2000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const within = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
  ]);

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** The app, its backend answering, and a connection it has accepted that has sent nothing yet. */
async function acceptedConnection() {
  const { server, port, shutdown, exit, release } = await runningApp();
  cleanup = () => server.closeAllConnections();
  release();
  const accepted = new Promise((resolve) => server.once('connection', resolve));
  const connection = openConnection(port);
  await accepted;
  return { shutdown, exit, connection };
}

/** The connection's request was answered, and closed it, and the stop then exited 0. */
async function expectAnsweredThenExit(connection: RawConnection, exit: ReturnType<typeof vi.fn>) {
  const answer = await connection.answer;
  expect(answer.status).toBe(200);
  expect(answer.headers.connection).toBe('close');
  await until(() => exit.mock.calls.length > 0);
  expect(exit).toHaveBeenCalledWith(0);
}

describe('graceful shutdown', () => {
  it('lets in-flight pages finish, closes idle keep-alive connections at once, then exits 0', async () => {
    const { server, port, shutdown, exit, release, waiting, readiness, logLines } = await runningApp();
    cleanup = () => server.closeAllConnections();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });

    // Idle keep-alive connections: each has served one request and waits for the next.
    await Promise.all([1, 2, 3].map(() => get(port, '/healthz', agent)));
    const idleSockets = Object.values(agent.freeSockets).flat();
    expect(idleSockets.length).toBeGreaterThan(0);
    const idleClosed = idleSockets.map((socket) => new Promise((resolve) => socket!.once('close', resolve)));

    // Pages in flight: their render waits for the backend.
    const inFlight = Array.from({ length: 5 }, () => get(port, '/impressum'));
    await until(() => waiting.renders === 5);

    shutdown('SIGTERM');
    expect(readiness.ready).toBe(false);
    await Promise.all(idleClosed);
    await until(() => logLines.some((line) => line.msg === 'no longer accepting connections'));
    await expect(get(port, '/')).rejects.toThrow(/ECONNREFUSED/);
    expect(exit).not.toHaveBeenCalled();

    release();
    const answers = await Promise.all(inFlight);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatch(/<\/html>$/);
      expect(answer.headers.connection).toBe('close');
    }
    await until(() => exit.mock.calls.length > 0);
    expect(exit).toHaveBeenCalledWith(0);
    agent.destroy();
  });

  it('lets an answer whose headers went out before shutdown stream to its end, then closes its connection', async () => {
    let finish!: () => void;
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Length': '4' });
      res.write('ab');
      finish = () => res.end('cd');
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup = () => server.closeAllConnections();
    const exit = vi.fn<(code: number) => void>();
    const logger = pino({ level: 'silent' });
    const shutdown = gracefulShutdown({ server, readiness: createReadiness(), logger, timeoutMs: 5000, exit });
    const { port } = server.address() as AddressInfo;

    const agent = new http.Agent({ keepAlive: true });
    const response = await new Promise<http.IncomingMessage>((resolve) =>
      http.get({ host: '127.0.0.1', port, agent }, resolve),
    );
    expect(response.headers.connection).toBe('keep-alive');
    const socketClosed = new Promise((resolve) => response.socket.once('close', resolve));
    let body = '';
    response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));

    shutdown('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(exit).not.toHaveBeenCalled();
    finish();
    await within(1000, socketClosed);
    expect(body).toBe('abcd');
    await until(() => exit.mock.calls.length > 0, 1000);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('answers a request that arrived just before shutdown but was not read yet', async () => {
    const { shutdown, exit, connection } = await acceptedConnection();
    // Sent, and shutdown begins in the same turn of the event loop; a busy event loop (blocked
    // here past the first sweep for idle connections) gets to read it only after that sweep.
    connection.send('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    shutdown('SIGTERM');
    const busyUntil = Date.now() + 150;
    while (Date.now() < busyUntil);
    await expectAnsweredThenExit(connection, exit);
  });

  it('answers the first request of a connection opened before shutdown but sent a moment after it', async () => {
    const { shutdown, exit, connection } = await acceptedConnection();
    shutdown('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    connection.send('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await expectAnsweredThenExit(connection, exit);
  });

  it('closes a connection that never sent a byte instead of waiting for it', async () => {
    const { server, port, shutdown, exit } = await runningApp();
    cleanup = () => server.closeAllConnections();
    const silent = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    const closed = new Promise((resolve) => silent.once('close', resolve));
    shutdown('SIGTERM');
    await closed;
    await until(() => exit.mock.calls.length > 0);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('cuts what is still running after the timeout and exits 1', async () => {
    const { server, port, shutdown, exit, waiting, logLines } = await runningApp(300);
    cleanup = () => server.closeAllConnections();
    const hung = get(port, '/').catch((error: Error) => error);
    await until(() => waiting.renders === 1);
    const started = Date.now();
    shutdown('SIGTERM');
    expect(await hung).toBeInstanceOf(Error);
    await until(() => exit.mock.calls.length > 0);
    expect(exit).toHaveBeenCalledWith(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(logLines.some((line) => line.msg === 'shutdown timed out: closing the remaining connections')).toBe(true);
  });

  it('exits at once on a second signal', async () => {
    const { server, port, shutdown, exit, waiting } = await runningApp();
    cleanup = () => server.closeAllConnections();
    void get(port, '/').catch(() => undefined);
    await until(() => waiting.renders === 1);
    shutdown('SIGINT');
    expect(exit).not.toHaveBeenCalled();
    shutdown('SIGINT');
    expect(exit).toHaveBeenCalledWith(1);
  });
});

describe('an uncaught error', () => {
  it('is logged with its stack and ends the process with status 1', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
          done();
        },
      }),
    );
    const processLike = new EventEmitter();
    const exit = vi.fn();
    exitOnUncaughtError(processLike, logger, exit);
    processLike.emit('uncaughtException', new Error('disk on fire'), 'unhandledRejection');
    expect(exit).toHaveBeenCalledWith(1);
    expect(lines[0]).toMatchObject({ level: 60, origin: 'unhandledRejection', msg: 'uncaught error: exiting' });
    expect((lines[0]!.err as { stack: string }).stack).toContain('disk on fire');
  });
});

describe('the HTTP server', () => {
  it('applies the configured connection timeouts', async () => {
    const config = loadConfig({
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '3000',
    });
    const server = createHttpServer(() => undefined, config);
    expect(server).toMatchObject({
      keepAliveTimeout: 1000,
      headersTimeout: 2000,
      requestTimeout: 3000,
      keepAliveTimeoutBuffer: 0,
      maxHeaderSize: 16384,
    });
  });
});
