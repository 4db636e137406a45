import express, { type Request, type RequestHandler, type Response } from 'express';
import { API_PATHS, type HeroSlidesAnswer, type LogoAnswer } from '../../shared/api.ts';
import { serializeForScript } from '../../shared/bootstrap.ts';
import type { CachedEndpoint, CacheObserver } from '../backend/cache-events.ts';
import { cacheControl, cacheStatus } from './cache-headers.ts';
import type { CacheSettings } from '../config/environment.ts';
import { encodeSmallBody, sendEncoded, type EncodedBody } from '../http/content-coding.ts';
import { entityTag } from '../http/entity-tag.ts';
import type { HeroSource, Served } from '../hero/hero-source.ts';
import { isNotModified, validatorsOf } from '../http/not-modified.ts';

/**
 * GET /api/hero-slides and /api/logo, meant to sit behind a CDN. Each answer says how long
 * it may be kept (max-age: what is left of its freshness), lets caches serve it stale while
 * revalidating or while we fail, says how the server's cache answered (Cache-Status), and
 * carries an ETag that is a hash of the body, so every replica gives the same one for the
 * same data.
 */
export function apiRouter(assets: HeroSource, cache: CacheSettings, observer: CacheObserver): express.Router {
  const router = express.Router();
  const endpoint = <T>(
    name: CachedEndpoint,
    load: () => Promise<Served<T>>,
    toBody: (value: T) => unknown,
  ): RequestHandler => {
    const represent = lastRepresentation(toBody);
    return async (req, res) => {
      const answer = await load();
      observer.served(name, answer.outcome);
      send(req, res, answer, represent(answer.value), cache);
    };
  };

  router.get(
    API_PATHS.heroSlides,
    endpoint(
      'hero-slides',
      () => assets.heroSlides(),
      (heroSlides): HeroSlidesAnswer => ({ heroSlides }),
    ),
  );
  router.get(
    API_PATHS.logo,
    endpoint(
      'logo',
      () => assets.logo(),
      (url): LogoAnswer => ({ url }),
    ),
  );
  router.use('/api', (_req, res) => {
    res.status(404).setHeader('Cache-Control', 'no-store').json({ error: 'not_found' });
  });
  return router;
}

interface Representation {
  body: EncodedBody;
  etag: string;
}

/**
 * The body and ETag of the value last served. Cached values do not change in place, so
 * the same value object means the same bytes; a new answer is hashed and compressed once.
 */
function lastRepresentation<T>(toBody: (value: T) => unknown): (value: T) => Representation {
  let last: { value: T; representation: Representation } | null = null;
  return (value) => {
    if (last?.value !== value) {
      // Escaped as for a <script> element: a studio name can never turn the JSON into markup.
      const json = serializeForScript(toBody(value));
      last = { value, representation: { body: encodeSmallBody(json), etag: entityTag(json, 'weak') } };
    }
    return last.representation;
  };
}

function send<T>(
  req: Request,
  res: Response,
  answer: Served<T>,
  { body, etag }: Representation,
  cache: CacheSettings,
): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Status', cacheStatus(answer, cache));
  res.vary('Accept-Encoding');
  // A fallback is no-store: no cache keeps it, so it is asked again soon.
  res.setHeader('Cache-Control', cacheControl(answer, cache));
  if (isNotModified(req.headers, validatorsOf(res))) {
    res.status(304).end();
    return;
  }
  res.status(200);
  sendEncoded(req, res, body);
}
