import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadClientAssets } from '../../server/files/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/paths.ts';
import { parseHtml } from '../helpers/html.ts';
import { startServer, type RunningServer } from '../helpers/server-process.ts';

/**
 * The built server's pages, as they leave it: the first paint needs the document alone, and
 * the Content-Security-Policy sent with each allows its inline stylesheet by the hash of exactly
 * the bytes the browser gets.
 */

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Answer {
  headers: Record<string, string | string[] | undefined>;
  /** The body decoded from its content coding: the bytes the browser's HTML parser reads. */
  body: Buffer;
}

function fetchPage(path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const body = coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ headers: res.headers, body });
      });
    }).on('error', reject);
  });
}

/** The style-src sources of a Content-Security-Policy header. */
function styleSources(policy: string): string[] {
  const directive = policy.split(';').find((d) => d.trim().startsWith('style-src '));
  return directive?.trim().split(/\s+/).slice(1) ?? [];
}

/**
 * The bytes of each `<style>` element's text, cut from the body as the HTML parser cuts them:
 * from the end of the start tag up to the first `</style`.
 */
function styleElementBytes(body: Buffer): Buffer[] {
  const text = body.toString('latin1'); // one character per byte, so offsets are byte offsets
  const found: Buffer[] = [];
  for (const match of text.matchAll(/<style(?:\s[^>]*)?>/gi)) {
    const start = match.index + match[0].length;
    const end = text.toLowerCase().indexOf('</style', start);
    found.push(body.subarray(start, end === -1 ? body.length : end));
  }
  return found;
}

const PAGES: [string, Record<string, string>][] = [
  ['/', {}],
  ['/', { cookie: 'selectedLanguage=es' }],
  ['/?lng=en', {}],
  ['/impressum', {}],
  ['/no/such/page', {}],
];
const CODINGS = ['br', 'gzip', 'identity'];

describe.each(PAGES)('%s %j as the built server sends it', (path, headers) => {
  it.each(CODINGS)('has nothing that blocks the first paint (%s)', async (coding) => {
    const { body } = await fetchPage(path, { ...headers, 'accept-encoding': coding });
    const doc = parseHtml(body.toString('utf8'));
    // A linked stylesheet holds the first paint until it has arrived.
    const rels = [...doc.querySelectorAll('link')].flatMap((link) =>
      (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/),
    );
    expect(rels).not.toContain('stylesheet');
    // So does a classic script, unless it is async or deferred.
    expect(doc.querySelectorAll('script[src]:not([type="module"]):not([async]):not([defer])')).toHaveLength(0);
    // The styles are there all the same: the whole stylesheet, in the head.
    const { inlineStyle } = loadClientAssets(CLIENT_BUILD_DIR);
    expect(doc.head.querySelectorAll('style')).toHaveLength(1);
    expect(doc.head.querySelector('style')!.textContent).toBe(inlineStyle.text);
    expect(doc.head.querySelector('style')!.attributes).toHaveLength(0);
  });

  it.each(CODINGS)('carries one inline style whose bytes the CSP hash allows exactly (%s)', async (coding) => {
    const { headers: answer, body } = await fetchPage(path, { ...headers, 'accept-encoding': coding });
    const styles = styleElementBytes(body);
    expect(styles).toHaveLength(1);
    const sources = styleSources(String(answer['content-security-policy']));
    const hash = `'sha256-${createHash('sha256').update(styles[0]!).digest('base64')}'`;
    expect(sources).toEqual(["'self'", hash]);
    expect(sources).not.toContain("'unsafe-inline'");
  });
});

describe('the inline stylesheet', () => {
  it('is the stylesheet file the server also serves, byte for byte', async () => {
    const { stylesheet } = loadClientAssets(CLIENT_BUILD_DIR);
    const [page, file] = await Promise.all([
      fetchPage('/', { 'accept-encoding': 'br' }),
      fetchPage(stylesheet, { 'accept-encoding': 'br' }),
    ]);
    expect(String(file.headers['content-type'])).toMatch(/^text\/css/);
    expect(styleElementBytes(page.body)[0]!.equals(file.body)).toBe(true);
  });
});
