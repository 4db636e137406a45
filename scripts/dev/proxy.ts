import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { APP_ROOT } from '../../server/config/paths.ts';
import { DEV_SCRIPT_PATH, PROBLEMS_PAGE_POLICY, problemsPage, problemsText } from './problems.ts';
import { DEV_STYLES_PATH, type DevReport, type ShownReport } from './problems-view.ts';

export interface DevProxy {
  /** The port it listens on (PORT=0 picks a free one). */
  port: number;
  /** Requests wait for the next server from now on. */
  restarting(): void;
  /** The server listens on this port. */
  up(port: number): void;
  /**
   * No server will come until the next change: open pages lay these problems over themselves,
   * and requests get them at once (a page as a page listing them, anything else as text).
   */
  down(report: DevReport): void;
  /** Tells every open page to reload. */
  reloadPages(): void;
  close(): Promise<void>;
}

const WAIT_FOR_SERVER_MS = 15_000;
const LIVE_RELOAD_SOURCE = path.join(APP_ROOT, 'scripts/dev/live-reload.ts');
const STYLES_SOURCE = path.join(APP_ROOT, 'scripts/dev/problems.css');

/** An event on /__dev/reload: `reload`, `up`, or `problems` with the report. */
const event = (name: string, data: unknown = '') => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The address the developer opens. It stays up while the server behind it restarts: requests
 * made meanwhile wait for the new server, and open pages hear on /__dev/reload when to reload,
 * and what is wrong while no server comes. It also serves the live-reload script and the
 * stylesheet of the list of problems, for the page that lists them.
 */
export function startDevProxy(port: number, host: string): Promise<DevProxy> {
  let target: number | null = null;
  let problem: ShownReport | null = null;
  let reports = 0;
  let waiting: (() => void)[] = [];
  let script: Promise<string> | null = null;
  const pages = new Set<http.ServerResponse>();
  const tell = (text: string) => pages.forEach((page) => page.write(text));
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

  // The script as the page that lists the problems loads it, built once, when first asked for.
  const liveReloadScript = () =>
    (script ??= esbuild
      .build({ entryPoints: [LIVE_RELOAD_SOURCE], bundle: true, write: false, format: 'iife', logLevel: 'warning' })
      .then((built) => built.outputFiles[0]!.text));

  const proxy = http.createServer(async (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === '/__dev/reload') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
      // What a page connecting now has missed: the problems, or that the server is up.
      res.write(
        `: connected\nretry: 1000\n\n${problem ? event('problems', problem) : target !== null ? event('up') : ''}`,
      );
      pages.add(res);
      req.on('close', () => pages.delete(res));
      return;
    }
    if (pathname === DEV_SCRIPT_PATH || pathname === DEV_STYLES_PATH) {
      try {
        const [type, body] =
          pathname === DEV_SCRIPT_PATH
            ? ['text/javascript', await liveReloadScript()]
            : ['text/css', readFileSync(STYLES_SOURCE, 'utf8')];
        res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'no-store' }).end(body);
      } catch (error) {
        script = null; // built again when next asked for
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Development server: ${error}\n`);
      }
      return;
    }
    await toServer(req, res);
  });

  /**
   * Sends a request to the server once it is up, or the problems while none will come. A request
   * without a body that the server refused because a restart stopped it meanwhile (a save the
   * editor's file system told twice restarts it twice) is sent again to the next one.
   */
  async function toServer(req: http.IncomingMessage, res: http.ServerResponse, again = false): Promise<void> {
    if (!(await whenServerUp())) {
      const shown = problem ?? {
        id: 0,
        kind: 'stopped' as const,
        problems: [{ message: 'the server did not start in time' }],
      };
      if (String(req.headers.accept).includes('text/html')) {
        res
          .writeHead(503, {
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-store',
            'Content-Security-Policy': PROBLEMS_PAGE_POLICY,
          })
          .end(problemsPage(shown, shown.id));
      } else {
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end(problemsText(shown));
      }
      return;
    }
    const port = target!;
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      const bodiless = req.method === 'GET' || req.method === 'HEAD';
      if (!again && bodiless && !res.headersSent && target !== port) return void toServer(req, res, true);
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Development server: ${error.message}\n`);
    });
    if (again) upstream.end();
    else req.pipe(upstream);
  }

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
          tell(event('up'));
        },
        down(report) {
          target = null;
          problem = { id: ++reports, ...report };
          wakeWaiting();
          tell(event('problems', problem));
        },
        reloadPages() {
          tell(event('reload'));
        },
        close() {
          for (const page of pages) page.end();
          return new Promise((done) => proxy.close(() => done()));
        },
      }),
    );
  });
}
