import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempSnapshotPath } from '../helpers/backend.ts';
import { HANG, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { startServer, waitUntilServing, type RunningServer } from '../../scripts/harness/server-process.ts';

/**
 * Every timeout the operator's guide promises holds within a second of its setting, measured against the
 * built server as the image runs it, with clients that misbehave the way real ones do.
 */
const KEEP_ALIVE_TIMEOUT_MS = 1500;
const HEADERS_TIMEOUT_MS = 2500;
const REQUEST_TIMEOUT_MS = 3500;
const UPSTREAM_TIMEOUT_MS = 1500;
const SHUTDOWN_TIMEOUT_MS = 1500;
const WITHIN_MS = 1000;
/** A slow client sends one byte this often: never idle long enough for an idle timer to fire. */
const TRICKLE_MS = 250;

let backend: FakeSupabase;
let server: RunningServer;

beforeAll(async () => {
  backend = await startFakeSupabase();
  backend.reply.heroImages = HANG;
  backend.reply.logoList = HANG;
  server = await startServer({
    KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    SUPABASE_URL: backend.url,
    SUPABASE_ANON_KEY: backend.key,
    CACHE_SNAPSHOT_PATH: tempSnapshotPath(),
  });
  // Ready once its start's own call to the backend has timed out: the tests' calls are their own.
  await waitUntilServing(`${server.url}/readyz`, 10_000);
});
afterAll(async () => {
  await server.stop();
  await backend.close();
});

interface Closed {
  /** When the connection was opened and when the server closed it (performance.now()). */
  openedAt: number;
  closedAt: number;
  /** When the first bytes of an answer arrived, if any did. */
  answeredAt: number | null;
  received: string;
}

/** Opens a connection, runs `client` on it, and resolves once the server has closed it. */
function untilClosed(client: (socket: net.Socket) => void): Promise<Closed> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    const openedAt = performance.now();
    let answeredAt: number | null = null;
    let received = '';
    socket.on('connect', () => client(socket));
    socket.on('data', (chunk) => {
      answeredAt ??= performance.now();
      received += String(chunk);
    });
    socket.on('error', () => {}); // a reset is a close too
    socket.on('close', () => resolve({ openedAt, closedAt: performance.now(), answeredAt, received }));
    setTimeout(() => reject(new Error('the server never closed the connection')), 60_000).unref();
  });
}

/** Sends `text` one byte every TRICKLE_MS, then `filler` at the same pace, so the request never ends. */
function trickle(socket: net.Socket, text: string, filler: string): void {
  let sent = 0;
  const timer = setInterval(() => socket.write(sent < text.length ? text[sent++]! : filler), TRICKLE_MS);
  socket.once('close', () => clearInterval(timer));
}

describe.concurrent('the connection timeouts hold within a second', () => {
  it('HEADERS_TIMEOUT_MS: headers sent a byte at a time are cut off', async ({ expect }) => {
    const closed = await untilClosed((socket) => trickle(socket, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'a'));
    const ms = closed.closedAt - closed.openedAt;
    expect(ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(HEADERS_TIMEOUT_MS + WITHIN_MS);
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('REQUEST_TIMEOUT_MS: a body that never finishes is cut off', async ({ expect }) => {
    const closed = await untilClosed((socket) => {
      socket.write('POST /api/hero-slides HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
      trickle(socket, '', 'a');
    });
    const ms = closed.closedAt - closed.openedAt;
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + WITHIN_MS);
  });

  it('KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed', async ({ expect }) => {
    const closed = await untilClosed((socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(closed.received).toMatch(/^HTTP\/1\.1 200 /);
    const idleMs = closed.closedAt - closed.answeredAt!;
    expect(idleMs).toBeGreaterThanOrEqual(KEEP_ALIVE_TIMEOUT_MS - 50);
    expect(idleMs).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS + WITHIN_MS);
  });

  it('UPSTREAM_TIMEOUT_MS: a backend that never answers still gets the visitor an answer', async ({ expect }) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/hero-slides`);
    const ms = performance.now() - started;
    expect(response.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(UPSTREAM_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(UPSTREAM_TIMEOUT_MS + WITHIN_MS);
  });
});

describe('SHUTDOWN_TIMEOUT_MS', () => {
  it('a request that never finishes holds a stopping server no longer than the setting', async () => {
    const stopping = await startServer({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    const socket = net.connect(Number(new URL(stopping.url).port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n'); // the headers never end
    await new Promise((resolve) => setTimeout(resolve, 100));
    const signalled = performance.now();
    expect(await stopping.stop('SIGTERM')).toBe(1);
    const ms = performance.now() - signalled;
    expect(ms).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(SHUTDOWN_TIMEOUT_MS + WITHIN_MS);
  });
});
