import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ProviderRequest {
  /** Path and query. */
  path: string;
  /** What the browser fetched it as (`Sec-Fetch-Dest`): `iframe` for a frame. */
  destination: string;
  referer: string | undefined;
}

/**
 * A stand-in for the video and map providers, on a loopback origin of its own over https (with a
 * certificate of its own, which the test browsers accept): it answers the providers' player and
 * map paths with a page of its own and counts every connection made to it (a preconnect or a
 * prefetch included) and every request. The content's embed addresses point here, since offline
 * the real providers' requests end at DNS before anything could count them.
 */
export class FakeProvider {
  readonly requests: ProviderRequest[] = [];
  connections = 0;

  private constructor(
    private readonly server: https.Server,
    private readonly folder: string,
  ) {}

  static async start(): Promise<FakeProvider> {
    const folder = mkdtempSync(path.join(tmpdir(), 'fake-provider-'));
    const key = path.join(folder, 'key.pem');
    const cert = path.join(folder, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ]),
      { stdio: 'ignore' },
    );
    const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) });
    const provider = new FakeProvider(server, folder);
    server.on('connection', () => provider.connections++);
    server.on('request', (request, response) => {
      provider.requests.push({
        path: request.url ?? '/',
        destination: String(request.headers['sec-fetch-dest'] ?? ''),
        referer: request.headers.referer,
      });
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      // The page names what it was asked for, so a screenshot shows which player a tab plays.
      const video = /^\/embed\/([\w-]+)/.exec(request.url ?? '')?.[1] ?? 'nothing';
      response.end(
        `<!DOCTYPE html><html lang="en"><title>Stand-in provider</title><body style="margin:0;display:grid;place-items:center;height:100vh;font:24px sans-serif;color:#fff;background:#000"><p>Stand-in provider playing video ${video}</p></body></html>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return provider;
  }

  get origin(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether anything at all reached it since the last reset. */
  get reached(): boolean {
    return this.connections > 0 || this.requests.length > 0;
  }

  reset(): void {
    this.requests.length = 0;
    this.connections = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.folder, { recursive: true, force: true });
  }
}
