import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DevProxy {
  /** The port it listens on (PORT=0 picks a free one). */
  port: number;
  /** Requests wait for the next server from now on. */
  restarting(): void;
  /** The server listens on this port. */
  up(port: number): void;
  /** No server will come until the next change: requests get this reason at once. */
  down(reason: string): void;
  /** Tells every open page to reload. */
  reloadPages(): void;
  close(): Promise<void>;
}

const WAIT_FOR_SERVER_MS = 15_000;

/**
 * The address the developer opens. It stays up while the server behind it restarts: requests
 * made meanwhile wait for the new server, and open pages hear on /__dev/reload when to reload.
 */
export function startDevProxy(port: number, host: string): Promise<DevProxy> {
  let target: number | null = null;
  let problem: string | null = null;
  let waiting: (() => void)[] = [];
  const pages = new Set<http.ServerResponse>();
  const wakeWaiting = () => {
    waiting.forEach((wake) => wake());
    waiting = [];
  };

  const whenServerUp = () =>
    target !== null || problem !== null
      ? Promise.resolve(target !== null)
      : new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), WAIT_FOR_SERVER_MS);
          waiting.push(() => {
            clearTimeout(timer);
            resolve(target !== null);
          });
        });

  const proxy = http.createServer(async (req, res) => {
    if (req.url === '/__dev/reload') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      res.write(': connected\n\n');
      pages.add(res);
      req.on('close', () => pages.delete(res));
      return;
    }
    if (!(await whenServerUp())) {
      const reason = problem ?? 'the server did not start in time';
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Development server: ${reason}\n`);
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Development server: ${error.message}\n`);
    });
    req.pipe(upstream);
  });

  return new Promise((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, host, () =>
      resolve({
        port: (proxy.address() as AddressInfo).port,
        restarting() {
          target = null;
          problem = null;
        },
        up(port) {
          target = port;
          problem = null;
          wakeWaiting();
        },
        down(reason) {
          target = null;
          problem = reason;
          wakeWaiting();
        },
        reloadPages() {
          for (const page of pages) page.write('event: reload\ndata: \n\n');
        },
        close() {
          for (const page of pages) page.end();
          return new Promise((done) => proxy.close(() => done()));
        },
      }),
    );
  });
}
