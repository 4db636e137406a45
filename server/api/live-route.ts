import express from 'express';
import { API_PATHS, type LiveAnswer } from '../../shared/api.ts';
import { serializeForScript } from '../../shared/bootstrap.ts';
import type { LiveState } from '../../shared/live-state.ts';
import type { LiveSettings } from '../config/environment.ts';
import { CODINGS, encodeSmallBody, preferredCoding, sendEncoded, type EncodedBody } from '../http/content-coding.ts';
import type { LiveSource } from '../live/live-source.ts';
import { liveEntityTag } from '../live/live-version.ts';
import { CACHE_STATUS_NAME } from './cache-headers.ts';
import { isNotModified, validatorsOf } from '../http/not-modified.ts';

/**
 * GET /api/live: the live state as a small JSON document, for open pages to ask for and the
 * caches in front to keep for a few seconds. Its ETag is strong, one per coding, built from the
 * state's version and time, and a conditional request is answered 304 while nothing changed. Its
 * lifetime is its own (LIVE_EDGE_SECONDS) and never served stale while revalidating, which would
 * let a kept copy outlive it; a copy may stand in while the server fails.
 */
export function liveRouter(source: LiveSource, settings: LiveSettings, staleIfErrorSeconds: number): express.Router {
  const router = express.Router();
  const represent = lastRepresentation();
  const cacheControl = `public, max-age=${settings.edgeSeconds}, stale-if-error=${staleIfErrorSeconds}`;

  router.get(API_PATHS.live, async (req, res) => {
    const state = await source.get();
    const coding = preferredCoding(req, CODINGS);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    const tag = liveEntityTag(state);
    res.setHeader('ETag', coding ? `"${tag}-${coding}"` : `"${tag}"`);
    res.setHeader('Cache-Control', cacheControl);
    // The state is always the server's current one: a hit, fresh for the whole lifetime.
    res.setHeader('Cache-Status', `${CACHE_STATUS_NAME}; hit; ttl=${settings.edgeSeconds}`);
    res.vary('Accept-Encoding');
    if (isNotModified(req.headers, validatorsOf(res))) {
      res.status(304).end();
      return;
    }
    res.status(200);
    sendEncoded(req, res, represent(state));
  });
  return router;
}

/** The bytes of the state last served, compressed once per state. */
function lastRepresentation(): (state: LiveState) => EncodedBody {
  let last: { state: LiveState; body: EncodedBody } | null = null;
  return (state) => {
    if (last?.state !== state) {
      const answer: LiveAnswer = state;
      // Escaped as for a <script> element: a notice can never turn the JSON into markup.
      last = { state, body: encodeSmallBody(serializeForScript(answer)) };
    }
    return last.body;
  };
}
