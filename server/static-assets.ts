import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import { setRouteLabel } from './metrics.ts';

/** Content codings the build writes next to each file, best first, with their file suffixes. */
const PRECOMPRESSED = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

type Coding = (typeof PRECOMPRESSED)[number]['coding'];

interface Asset {
  file: string;
  /** The precompressed copies there are of it. */
  copies: Partial<Record<Coding, string>>;
}

/**
 * The hashed bundle and stylesheet of dist/client/assets. Their names change with their
 * content, so browsers and CDNs may keep them for a year. The brotli and gzip copies the
 * build wrote are sent as they are, by the client's Accept-Encoding. The folder is listed
 * once at start and only those names are served, so no request can reach another file.
 */
export function hashedAssets(dir: string): RequestHandler {
  const assets = listAssets(dir);
  return (req, res, next) => {
    const asset = assets.get(req.path.slice(1));
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) return next();

    setRouteLabel(res, '/assets');
    res.type(path.extname(asset.file));
    if (Object.keys(asset.copies).length > 0) res.vary('Accept-Encoding');
    const coding = chooseCoding(req, asset.copies);
    if (coding) res.setHeader('Content-Encoding', coding);
    res.sendFile(coding ? asset.copies[coding]! : asset.file, { maxAge: '1y', immutable: true });
  };
}

function listAssets(dir: string): Map<string, Asset> {
  const names = readdirSync(dir);
  const assets = new Map<string, Asset>();
  for (const name of names) {
    if (PRECOMPRESSED.some(({ suffix }) => name.endsWith(suffix))) continue;
    const copies: Asset['copies'] = {};
    for (const { coding, suffix } of PRECOMPRESSED) {
      if (names.includes(name + suffix)) copies[coding] = path.join(dir, name + suffix);
    }
    assets.set(name, { file: path.join(dir, name), copies });
  }
  return assets;
}

/**
 * The copy in the coding the client rates highest (brotli on a tie); none, meaning the file
 * itself, when it accepts none of the copies there are.
 */
function chooseCoding(req: Request, copies: Asset['copies']): Coding | undefined {
  const accepted = acceptedCodings(req.headers['accept-encoding']);
  const quality = (coding: Coding) => (copies[coding] ? (accepted.get(coding) ?? accepted.get('*') ?? 0) : 0);
  const best = PRECOMPRESSED.map(({ coding }) => coding).reduce((a, b) => (quality(b) > quality(a) ? b : a));
  return quality(best) > 0 ? best : undefined;
}

/** Accept-Encoding as coding → quality ("gzip;q=0.5, br" → gzip 0.5, br 1). */
function acceptedCodings(header: string | undefined): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    accepted.set(name, Number.isFinite(quality) ? quality : 0);
  }
  return accepted;
}
