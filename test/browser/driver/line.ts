import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeBody } from '../../../scripts/harness/content-coding.ts';

/** The path the line answers itself with the script it puts first in every document. */
export const FIRST_SCRIPT_PATH = '/__visitor-line/first.js';

export interface PassedRequest {
  method: string;
  /** Path and query. */
  path: string;
  /** What the browser fetches it as (`Sec-Fetch-Dest`): `document`, `script`, `empty` for fetch(), … */
  destination: string;
  /** The server's status, once it answered. */
  status?: number;
  /** For a document, the HTML the server sent, once it has all arrived (before the line puts anything in). */
  html?: string;
}

/**
 * The line between one visitor's browser and the server: a loopback proxy of its own, so that
 * every engine can be observed and slowed down the same way. It records each request, holds
 * back the answers to chosen paths, and, for engines whose drivers cannot run a script before the
 * page's own cleanly, puts one first in the head of every HTML document, served from the site's
 * origin as the page's Content-Security-Policy allows.
 */
export class VisitorLine {
  readonly requests: PassedRequest[] = [];
  private readonly holds: { prefix: string; ms: number }[] = [];
  private readonly server: http.Server;
  private readonly firstScripts: string[] = [];

  private constructor(private readonly target: URL) {
    // Keeps a browser's idle connections open until the line closes: closed after Node's 5 s, a
    // connection may take the browser's next request with it (suspected of a WebKit tab's image
    // and live-state fetch that never got an answer).
    this.server = http.createServer({ keepAliveTimeout: 0 }, (request, response) => void this.pass(request, response));
  }

  static async open(targetUrl: string): Promise<VisitorLine> {
    const line = new VisitorLine(new URL(targetUrl));
    await new Promise<void>((resolve) => line.server.listen(0, '127.0.0.1', resolve));
    return line;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers to paths starting with `prefix` reach the browser `ms` late. */
  hold(prefix: string, ms: number): void {
    this.holds.push({ prefix, ms });
  }

  /**
   * From now on, every HTML document runs the function with its argument before anything else,
   * after the functions given before it. `helpers` follow the argument, passed as functions (each
   * must be self-contained: it is sent as its source).
   */
  runFirst<A, H extends ((...args: never[]) => unknown)[] = []>(
    fn: (arg: A, ...helpers: H) => void,
    arg: A,
    ...helpers: H
  ): void {
    const args = [JSON.stringify(arg) ?? 'undefined', ...helpers.map((helper) => `(${helper.toString()})`)];
    this.firstScripts.push(`(${fn.toString()})(${args.join(', ')});`);
  }

  forgetRequests(): void {
    this.requests.length = 0;
  }

  /** The status of the latest document the browser asked for. */
  latestDocumentStatus(): number | undefined {
    return this.requests.findLast((request) => request.destination === 'document')?.status;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async pass(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    if (path === FIRST_SCRIPT_PATH) {
      response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
      response.end(this.firstScripts.join('\n'));
      return;
    }
    const passed: PassedRequest = {
      method: request.method ?? 'GET',
      path,
      destination: String(request.headers['sec-fetch-dest'] ?? ''),
    };
    this.requests.push(passed);
    const inject = this.firstScripts.length > 0 && passed.destination === 'document';
    const headers = { ...request.headers };
    if (inject) headers['accept-encoding'] = 'identity';

    const upstream = http.request(
      { host: this.target.hostname, port: this.target.port, method: request.method, path, headers },
      async (answer) => {
        passed.status = answer.statusCode;
        const delay = this.holds.find((hold) => path.startsWith(hold.prefix))?.ms ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        const html = String(answer.headers['content-type'] ?? '').startsWith('text/html');
        if (!(inject && html)) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          if (html && passed.destination === 'document') {
            const chunks: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => chunks.push(chunk));
            answer.on('end', () => {
              passed.html = decodeBody(Buffer.concat(chunks), answer.headers['content-encoding']).toString('utf8');
            });
          }
          answer.pipe(response);
          return;
        }
        const { 'content-length': _length, ...rest } = answer.headers;
        response.writeHead(answer.statusCode ?? 502, rest);
        // Held back until the head's opening tag has come, then passed on as it comes.
        let sent = '';
        let placed = false;
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          sent += chunk;
          if (placed) return void response.write(chunk);
          const open = /<head[^>]*>/i.exec(sent);
          if (!open) return;
          const at = open.index + open[0].length;
          response.write(`${sent.slice(0, at)}<script src="${FIRST_SCRIPT_PATH}"></script>${sent.slice(at)}`);
          placed = true;
        });
        answer.on('end', () => {
          passed.html = sent;
          response.end(placed ? undefined : sent);
        });
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  }
}
