import { request } from 'node:http';

export interface Download {
  url: string;
  kind: 'html' | 'css' | 'js';
  /** Bytes on the wire, compressed as served. */
  bytes: number;
  encoding: string;
}

const ACCEPT = { 'accept-encoding': 'br, gzip' };

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

/** What a first visit to `pageUrl` downloads of HTML, CSS and JavaScript (images aside). */
export async function firstVisitWeight(pageUrl: string, decodedHtml: string): Promise<Download[]> {
  const page = await fetchRaw(pageUrl);
  const downloads: Download[] = [
    { url: pageUrl, kind: 'html', bytes: page.body.length, encoding: page.headers['content-encoding'] ?? 'identity' },
  ];
  const origin = new URL(pageUrl).origin;
  const assets = new Set<string>();
  for (const match of decodedHtml.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)) assets.add(match[1]!);
  for (const match of decodedHtml.matchAll(/<script type="module" src="([^"]+)"/g)) assets.add(match[1]!);
  // Modules pull in their chunks (the app chunk is imported after the first paint): follow them all.
  const pending = [...assets];
  for (let path = pending.shift(); path; path = pending.shift()) {
    const res = await fetchRaw(origin + path);
    downloads.push({
      url: path,
      kind: path.endsWith('.css') ? 'css' : 'js',
      bytes: res.body.length,
      encoding: res.headers['content-encoding'] ?? 'identity',
    });
    if (!path.endsWith('.js')) continue;
    const plain = await fetchRaw(origin + path, {});
    for (const match of plain.body.toString().matchAll(/["'](?:\.\/|\/assets\/)([\w-]+\.js)["']/g)) {
      const chunk = `/assets/${match[1]}`;
      if (!assets.has(chunk)) {
        assets.add(chunk);
        pending.push(chunk);
      }
    }
  }
  return downloads;
}
