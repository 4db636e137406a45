import { readdirSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import { setRouteLabel } from '../http/route-label.ts';

/**
 * The files of public/ (favicon, images), listed once at start: a request for any other path
 * goes straight on, without a file system lookup, so pages and 404s never wait for one.
 * Editors replace images under the same names, so browsers and CDNs keep them for an hour.
 * A new file is served after a restart, like every other content change.
 */
export function publicFiles(dir: string): RequestHandler {
  const files = new Set(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`),
  );
  const serve = express.static(dir, {
    maxAge: '1h',
    index: false,
    redirect: false,
    setHeaders: (res) => setRouteLabel(res, 'static'),
  });
  return (req, res, next) => (files.has(decodedPath(req.path)) ? serve(req, res, next) : next());
}

/** The path as a file name; a malformed escape names no file. */
function decodedPath(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    return '';
  }
}
