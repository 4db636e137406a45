import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDevProxy, type DevProxy } from '../../scripts/dev/proxy.ts';

/**
 * `npm run dev`'s address in front of the server it restarts: a page asked for while a restart
 * stops the server it was sent to reaches the next server, not an error.
 */
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listening(handler: http.RequestListener, onConnection?: (socket: Socket) => void) {
  const server = http.createServer(handler);
  if (onConnection) server.on('connection', onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

async function devProxy(): Promise<DevProxy> {
  const proxy = await startDevProxy(0, '127.0.0.1');
  closers.push(() => proxy.close());
  return proxy;
}

describe('the development proxy', () => {
  it('sends a page to the next server when the one it was sent to stops for a restart', async () => {
    const proxy = await devProxy();
    const next = await listening((_req, res) => res.end('the next server'));
    // The server stopping: it drops the connection, as the restart begins and the next one comes up.
    const stopping = await listening(
      () => {},
      (socket) => {
        proxy.restarting();
        socket.destroy();
        setTimeout(() => proxy.up(next), 50);
      },
    );
    proxy.up(stopping);
    const res = await fetch(`http://127.0.0.1:${proxy.port}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('the next server');
  });

  it('tells the error of a server that stops answering with no restart under way', async () => {
    const proxy = await devProxy();
    const broken = await listening(
      () => {},
      (socket) => socket.destroy(),
    );
    proxy.up(broken);
    const res = await fetch(`http://127.0.0.1:${proxy.port}/`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/^Development server: /);
  });
});
