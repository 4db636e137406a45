import { request } from 'node:http';

export interface Download {
  url: string;
  kind: 'html' | 'css' | 'js';
  /** Bytes on the wire, compressed as served. */
  bytes: number;
  encoding: string;
}

const ACCEPT = { 'accept-encoding': 'br, gzip' };

/** What a first visit may download of each kind, in bytes as served (docs/speed.md). */
export const WEIGHT_BUDGET: Record<Download['kind'], number> = { html: 20 * 1024, css: 15 * 1024, js: 100 * 1024 };

/** A line for each kind over its budget. */
export function overWeightBudget(downloads: Download[]): string[] {
  return (Object.keys(WEIGHT_BUDGET) as Download['kind'][]).flatMap((kind) => {
    const bytes = downloads.filter((download) => download.kind === kind).reduce((sum, d) => sum + d.bytes, 0);
    return bytes > WEIGHT_BUDGET[kind]
      ? [`a first visit's ${kind} is ${bytes} bytes, over its budget of ${WEIGHT_BUDGET[kind]}`]
      : [];
  });
}

/** GET without decompressing: the bytes a browser downloads. */
export function fetchRaw(url: string, headers: Record<string, string> = ACCEPT) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
          ),
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The script elements' types a browser runs: classic scripts (no type, or a JavaScript one) and modules. */
const RUNNABLE = /^(?:|module|text\/javascript|application\/javascript)$/i;

/**
 * The JavaScript modules a page loads, as its browser finds them: every `<script type="module"
 * src>`, and every module an inline script imports by a plain string (the build's starter does
 * `import("/assets/app-….js")`), or an inline module imports `from`. Addresses as written; data
 * blocks (JSON, JSON-LD) are skipped.
 */
export function pageModules(html: string): string[] {
  const found = new Set<string>();
  for (const [, attributes = '', text = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1] ?? '';
    if (!RUNNABLE.test(type)) continue;
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(attributes)?.[1];
    if (src) {
      if (type.toLowerCase() === 'module') found.add(src);
      continue;
    }
    for (const [, , specifier] of text.matchAll(/\bimport\s*\(\s*(["'])([^"']+)\1\s*\)/g)) found.add(specifier!);
    if (type.toLowerCase() !== 'module') continue;
    for (const [, , specifier] of text.matchAll(/\bimport\b[^"'();]*?\bfrom\s*(["'])([^"']+)\1/g))
      found.add(specifier!);
  }
  return [...found];
}

/**
 * The app module a page starts (see pageModules): exactly one, or an error saying what the page
 * holds instead, so a changed page stops the benchmark rather than measuring nothing.
 */
export function appModuleOf(html: string): string {
  const modules = pageModules(html);
  if (modules.length === 1) return modules[0]!;
  throw new Error(
    modules.length
      ? `The page loads ${modules.length} modules (${modules.join(', ')}), not one app module`
      : 'The page names no JavaScript module: neither a <script type="module" src> nor an inline import("…")',
  );
}

/** The languages a page offers, as its alternates name them for search engines (x-default aside). */
export function offeredLanguagesOf(html: string): string[] {
  const codes = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)"/g)].map((match) => match[1]!);
  const offered = codes.filter((code) => code !== 'x-default');
  if (offered.length === 0)
    throw new Error('The page names no language alternates: which languages it offers is unknown');
  return offered;
}

const isOk = (status: number) => status >= 200 && status < 300;

/**
 * What a first visit to `pageUrl` downloads of HTML, CSS and JavaScript (images aside): the page,
 * its linked stylesheets, and the modules it loads with every chunk they import. Throws when the
 * page loads no JavaScript or a file it names does not answer 2xx.
 */
export async function firstVisitWeight(pageUrl: string, decodedHtml: string): Promise<Download[]> {
  const page = await fetchRaw(pageUrl);
  if (!isOk(page.status)) throw new Error(`${pageUrl} answered ${page.status}`);
  const downloads: Download[] = [
    { url: pageUrl, kind: 'html', bytes: page.body.length, encoding: page.headers['content-encoding'] ?? 'identity' },
  ];
  const named = [
    ...[...decodedHtml.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!),
    ...pageModules(decodedHtml),
  ];
  const assets = new Set(named.map((address) => new URL(address, pageUrl).href));
  // Modules pull in their chunks: follow them all.
  const pending = [...assets];
  for (let asset = pending.shift(); asset; asset = pending.shift()) {
    const url = new URL(asset);
    const kind = url.pathname.endsWith('.css') ? 'css' : 'js';
    const res = await fetchRaw(url.href);
    if (!isOk(res.status)) throw new Error(`${url.pathname}, which the page loads, answered ${res.status}`);
    downloads.push({
      url: url.pathname,
      kind,
      bytes: res.body.length,
      encoding: res.headers['content-encoding'] ?? 'identity',
    });
    if (kind !== 'js') continue;
    const plain = await fetchRaw(url.href, {});
    for (const match of plain.body.toString().matchAll(/["'](?:\.\/|\/assets\/)([\w-]+\.js)["']/g)) {
      const chunk = new URL(`/assets/${match[1]}`, pageUrl).href;
      if (!assets.has(chunk)) {
        assets.add(chunk);
        pending.push(chunk);
      }
    }
  }
  if (!downloads.some((download) => download.kind === 'js' && download.bytes > 0)) {
    throw new Error(
      `${pageUrl} loads no JavaScript the benchmark can find (see pageModules in scripts/bench/weight.ts)`,
    );
  }
  return downloads;
}
