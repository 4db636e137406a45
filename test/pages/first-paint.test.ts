import { createHash } from 'node:crypto';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBody } from '../../scripts/harness/content-coding.ts';
import { loadClientAssets, readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { BOOTSTRAP_ELEMENT_ID, ROOT_ELEMENT_ID } from '../../shared/bootstrap.ts';
import { parseHtml } from '../helpers/html.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';

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
        resolve({ headers: res.headers, body: decodeBody(Buffer.concat(chunks), res.headers['content-encoding']) });
      });
    }).on('error', reject);
  });
}

/** The sources of one directive (`style-src`, `script-src`) of a Content-Security-Policy header. */
function sourcesOf(policy: string, name: string): string[] {
  const directive = policy.split(';').find((d) => d.trim().startsWith(`${name} `));
  return directive?.trim().split(/\s+/).slice(1) ?? [];
}

/**
 * The bytes of each `<style>` element's text (or each `<script>` one's with no attributes: the
 * executable inline ones), cut from the body as the HTML parser cuts them: from the end of the
 * start tag up to the first `</style` (or `</script`).
 */
function inlineElementBytes(body: Buffer, element: 'style' | 'script'): Buffer[] {
  const text = body.toString('latin1'); // one character per byte, so offsets are byte offsets
  const found: Buffer[] = [];
  const startTag = element === 'style' ? /<style(?:\s[^>]*)?>/gi : /<script>/gi;
  for (const match of text.matchAll(startTag)) {
    const start = match.index + match[0].length;
    const end = text.toLowerCase().indexOf(`</${element}`, start);
    found.push(body.subarray(start, end === -1 ? body.length : end));
  }
  return found;
}

const cspHash = (bytes: Buffer) => `'sha256-${createHash('sha256').update(bytes).digest('base64')}'`;

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
    const styles = inlineElementBytes(body, 'style');
    expect(styles).toHaveLength(1);
    const sources = sourcesOf(String(answer['content-security-policy']), 'style-src');
    expect(sources).toEqual(["'self'", cspHash(styles[0]!)]);
    expect(sources).not.toContain("'unsafe-inline'");
  });

  it.each(CODINGS)(
    'carries one inline script, the starter, whose bytes the CSP hash allows exactly (%s)',
    async (coding) => {
      const { headers: answer, body } = await fetchPage(path, { ...headers, 'accept-encoding': coding });
      const scripts = inlineElementBytes(body, 'script');
      expect(scripts).toHaveLength(1);
      expect(scripts[0]!.toString('utf8')).toBe(loadClientAssets(CLIENT_BUILD_DIR).inlineScript.text);
      const sources = sourcesOf(String(answer['content-security-policy']), 'script-src');
      expect(sources).toEqual(["'self'", cspHash(scripts[0]!)]);
      expect(sources).not.toContain("'unsafe-inline'");
    },
  );

  it('holds its first frame until the markup before its data element has been parsed', async () => {
    const { body } = await fetchPage(path, { ...headers, 'accept-encoding': 'identity' });
    const doc = parseHtml(body.toString('utf8'));
    const expects = doc.head.querySelectorAll('link[rel="expect"]');
    expect(expects).toHaveLength(1);
    expect(expects[0]!.getAttribute('blocking')).toBe('render');
    const target = doc.querySelector(expects[0]!.getAttribute('href')!);
    expect(target?.id).toBe('bootstrap-data');
    // After all of the app's markup: the root element ends before it.
    expect(target!.previousElementSibling?.id).toBe('root');
  });

  it('keeps its body hidden until then in browsers without rel=expect', async () => {
    const { body } = await fetchPage(path, { ...headers, 'accept-encoding': 'identity' });
    const doc = parseHtml(body.toString('utf8'));
    const css = doc.head.querySelector('style')!.textContent!.replace(/\s+/g, '');
    expect(css).toContain(`body:has(>#${ROOT_ELEMENT_ID}):not(:has(>#${BOOTSTRAP_ELEMENT_ID})){visibility:hidden}`);
    // The data element is a child of the body itself, so the rule lets go of it once parsed.
    expect(doc.querySelector(`body > #${BOOTSTRAP_ELEMENT_ID}`)).not.toBeNull();
  });
});

describe('the inline stylesheet', () => {
  it('is the stylesheet file the server also serves, byte for byte', async () => {
    const { stylesheet } = readClientManifest(CLIENT_BUILD_DIR);
    const [page, file] = await Promise.all([
      fetchPage('/', { 'accept-encoding': 'br' }),
      fetchPage(stylesheet, { 'accept-encoding': 'br' }),
    ]);
    expect(String(file.headers['content-type'])).toMatch(/^text\/css/);
    expect(inlineElementBytes(page.body, 'style')[0]!.equals(file.body)).toBe(true);
  });
});
