import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { CODINGS, preferredCoding, type Coding } from '../http/content-coding.ts';
import { entityTag } from '../http/entity-tag.ts';
import { setRouteLabel } from '../http/route-label.ts';
import { isNotModified, validatorsOf } from '../http/not-modified.ts';

/** Content codings the build writes next to each file, best first, with their file suffixes. */
const PRECOMPRESSED = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;

interface Body {
  bytes: Buffer;
  etag: string;
}

interface Asset {
  type: string;
  identity: Body;
  /** The precompressed copies there are of it. */
  copies: Partial<Record<Coding, Body>>;
}

/**
 * The hashed bundle, its chunks and the stylesheet of dist/client/assets, held in memory:
 * a request costs no file system call. Their names change with their content, so browsers
 * and CDNs may keep them for a year. The brotli and gzip copies the build wrote are sent as
 * they are, by the client's Accept-Encoding. The folder is read once at start and only those
 * names are served, so no request can reach another file.
 */
export function hashedAssets(dir: string): RequestHandler {
  const assets = loadAssets(dir);
  return (req, res, next) => {
    const asset = assets.get(req.path.slice(1));
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) return next();

    setRouteLabel(res, '/assets');
    const coding = preferredCoding(
      req,
      CODINGS.filter((candidate) => asset.copies[candidate]),
    );
    const body = coding ? asset.copies[coding]! : asset.identity;
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    if (Object.keys(asset.copies).length > 0) res.setHeader('Vary', 'Accept-Encoding');
    if (coding) res.setHeader('Content-Encoding', coding);
    res.setHeader('ETag', body.etag);
    if (isNotModified(req.headers, validatorsOf(res))) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Length', body.bytes.length);
    res.end(body.bytes);
  };
}

function loadAssets(dir: string): Map<string, Asset> {
  const names = readdirSync(dir);
  const read = (name: string): Body => {
    const bytes = readFileSync(path.join(dir, name));
    return { bytes, etag: entityTag(bytes, 'strong') };
  };
  const assets = new Map<string, Asset>();
  for (const name of names) {
    if (PRECOMPRESSED.some(({ suffix }) => name.endsWith(suffix))) continue;
    const copies: Asset['copies'] = {};
    for (const { coding, suffix } of PRECOMPRESSED) {
      if (names.includes(name + suffix)) copies[coding] = read(name + suffix);
    }
    assets.set(name, { type: contentType(name), identity: read(name), copies });
  }
  return assets;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

function contentType(name: string): string {
  return TYPES[path.extname(name)] ?? 'application/octet-stream';
}
