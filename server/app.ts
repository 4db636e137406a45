import type { RequestListener } from 'node:http';
import path from 'node:path';
import compression from 'compression';
import express from 'express';
import { apiRouter } from './api/routes.ts';
import { ignoreCacheEvents, type CacheObserver } from './backend/cache-events.ts';
import { errorHandler, onlyReadMethods } from './http/error-handler.ts';
import { hasStrongEntityTag } from './http/entity-tag.ts';
import { hasChosenCoding } from './http/content-coding.ts';
import { healthRoutes, type Readiness } from './ops/health.ts';
import { connectBackend, type BackendConnection } from './backend/connection.ts';
import { backendHeroSource } from './hero/from-backend.ts';
import { embeddedHeroSource } from './hero/from-content.ts';
import type { HeroSource, HeroSourceOptions } from './hero/hero-source.ts';
import { makeStartPictures, START_PICTURES_TIMEOUT_MS } from './hero/start-pictures.ts';
import { withPhotos } from './hero/with-photos.ts';
import { heroPhotos } from './photos/hero-photos.ts';
import { photoRoute } from './photos/photo-route.ts';
import type { Photos } from './photos/photos.ts';
import { backendLiveSource } from './live/backend-source.ts';
import { fixedLiveSource } from './live/fixed-source.ts';
import type { LiveSource } from './live/live-source.ts';
import { liveRouter } from './api/live-route.ts';
import { localesRouter } from './static/locales.ts';
import type { Metrics } from './ops/metrics.ts';
import { everyRequest, type EveryRequest } from './ops/every-request.ts';
import { securityHeaders } from './ops/security-headers.ts';
import { clientAddress, proxyTrust } from './http/client-address.ts';
import { PAGE_ROUTE_PATHS, pageAnswers, type PageAnswers, type PageDeps } from './pages/page-handler.ts';
import { errorPageRehearsal, sendErrorPage } from './pages/render.tsx';
import { CLIENT_BUILD_DIR, PUBLIC_DIR } from './config/paths.ts';
import { publicFiles } from './static/public-files.ts';
import { discoveryRoutes } from './discovery/routes.ts';
import { keepRedirectsOnOrigin } from './ops/redirects.ts';
import { hashedAssets } from './static/static-assets.ts';
import { liveRulesOf } from './content/live-rules.ts';
import { eventNow } from '../shared/rehearsal.ts';

export interface AppDeps extends Omit<PageDeps, 'heroSource' | 'liveSource'> {
  metrics: Metrics;
  readiness: Readiness;
  /** The hero's slides and logo; by default the backend when configured, else the content file. */
  heroSource?: HeroSource;
  /** The notice and status the event team changes without a restart; by default the backend's row when configured, else none. */
  liveSource?: LiveSource;
  /** Told how every /api answer was served and about every failed backend call; the metrics' observer in production. */
  cacheObserver?: CacheObserver;
  /**
   * The real clock (ms since the epoch) of the backend caches, and of the event's phase and
   * countdown moved by a rehearsal's shift (`rehearsal`).
   */
  now?: () => number;
  /**
   * Make the hero's pictures of its photos and serve them (the default); off, the page shows the
   * addresses the content file or the backend gives. Not for a `heroSource` given here.
   */
  photos?: boolean;
}

/** The whole request pipeline, in order. It never listens: server/index.ts does. */
export function createApp(appDeps: AppDeps): RequestListener {
  const { config } = appDeps;
  const cacheObserver = appDeps.cacheObserver ?? ignoreCacheEvents;
  const cacheOptions = { logger: appDeps.logger, observer: cacheObserver, now: appDeps.now ?? Date.now };
  // One supabase-js client and one snapshot file for the hero's calls and the live row.
  const backend =
    config.backend && (!appDeps.heroSource || !appDeps.liveSource)
      ? connectBackend(config, config.backend, appDeps.logger)
      : null;
  const made =
    appDeps.heroSource || appDeps.photos === false ? null : heroPhotos(config, appDeps.content, cacheOptions);
  const heroSource = appDeps.heroSource ?? madeHeroSource(config, appDeps.content, backend, cacheOptions, made);
  // The backend's photos are shown once made: a replica makes the hero's before it takes visitors.
  if (made && backend)
    appDeps.readiness.holdUntil(
      makeStartPictures(heroSource, made, { timeoutMs: START_PICTURES_TIMEOUT_MS, logger: appDeps.logger }),
    );
  const liveSource =
    appDeps.liveSource ??
    (backend
      ? backendLiveSource(config, backend, {
          ...cacheOptions,
          rules: liveRulesOf(appDeps.content),
          observer: appDeps.metrics.liveObserver,
          cacheObserver,
        })
      : fixedLiveSource());
  const deps = { ...appDeps, heroSource, liveSource };

  // Only the proxies named here may tell the client's address (X-Forwarded-For) and protocol.
  const trust = proxyTrust(config.trustProxy);
  // What every request gets, whichever way it is answered: its id, the security headers (on
  // errors and probes too), Connection: close while shutting down so that clients reconnect
  // elsewhere, its log line (probes aside), its count and time.
  const every = everyRequest({
    logger: deps.logger,
    metrics: deps.metrics,
    readiness: deps.readiness,
    securityHeaders: securityHeaders(
      config,
      deps.content,
      { script: deps.clientAssets.inlineScript.hash, style: deps.clientAssets.inlineStyle.hash },
      // With the pictures made here, no page names an image of the backend's.
      { backendImages: made === null },
    ),
    noindex: !!deps.rehearsal,
    clientAddress: (req) => clientAddress(req, trust),
  });
  // The event clock: the real one, moved by a rehearsal's shift. Nothing else reads it.
  const realNow = appDeps.now ?? Date.now;
  const eventClockNow = () => eventNow(deps.rehearsal?.shiftMs, realNow());
  const pages = pageAnswers(deps, { now: realNow });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trust);
  keepRedirectsOnOrigin(app, config.publicOrigin);

  app.use(every.middleware);
  // Before any route: a POST never reaches a handler and no body is ever read.
  app.use(onlyReadMethods);

  // An answer with a strong ETag names its exact bytes: it is sent as it is (/api/live); one that
  // chose among its compressed copies (pages, the other /api answers, the locale files) too.
  app.use(
    compression({
      filter: (req, res) => !hasStrongEntityTag(res) && !hasChosenCoding(res) && compression.filter(req, res),
    }),
  );

  // The metrics are served on their own port (server/ops/metrics-server.ts): here /metrics is a 404.
  app.use(healthRoutes(deps.readiness));

  // The pages come before the rest, which they would only wait for.
  app.get(PAGE_ROUTE_PATHS, pages.handle);

  // Before the static folders: an /api request must not wait for a file lookup.
  app.use(liveRouter(liveSource, config.live, config.cache.staleSeconds));
  app.use(apiRouter(heroSource, config.cache, cacheObserver));

  // Hashed names change with their content: a year, immutable, precompressed copies as they are.
  app.use('/assets', hashedAssets(path.join(CLIENT_BUILD_DIR, 'assets')));
  // The pictures made of the hero's photos, named by their photo's hash: a year, immutable too.
  if (made) app.use(photoRoute(made.store));
  app.use('/locales', localesRouter(deps.translations));
  app.use(publicFiles(PUBLIC_DIR));
  app.use(discoveryRoutes({ ...deps, now: eventClockNow }));

  // Any other path: the 404 page.
  app.get('/{*splat}', pages.handle);

  const errorPage = {
    language: deps.content.public.languages[0]!.code,
    assets: deps.clientAssets,
    showErrorStack: !config.production,
    rehearsal: deps.rehearsal
      ? errorPageRehearsal(deps.translations.forRequest(deps.content.public.languages[0]!.code), deps.rehearsal)
      : null,
  };
  app.use(errorHandler({ logger: deps.logger, sendErrorPage: (res, error) => sendErrorPage(res, error, errorPage) }));

  // Every request, in order: a kept page at its own path is sent at once, with what every
  // request gets; anything else goes through the Express app above, from its first middleware.
  return keptPagesFirst(app, pages, every, deps.readiness);
}

/** The pages' own paths, exactly as a browser asks for them. */
const PAGE_URLS = new Set<string>(PAGE_ROUTE_PATHS);
/** A page request's query, which the kept-page path never has. */
const NO_QUERY = Object.freeze({});

/**
 * What most requests ask for, answered before Express: a GET or HEAD of a page's own path, with
 * no query, whose bytes are kept already and whose data is at hand (pages.kept), gets what every
 * request gets (every.start, the Express app's first middleware too) and the kept bytes or a 304,
 * without the router and the middlewares it has no use for. Anything else, a page still to render
 * or to wait for, and every request once the server shuts down, goes to `site` as it came.
 */
function keptPagesFirst(
  site: RequestListener,
  pages: PageAnswers,
  every: EveryRequest,
  readiness: Readiness,
): RequestListener {
  return (req, res) => {
    const kept =
      (req.method === 'GET' || req.method === 'HEAD') && PAGE_URLS.has(req.url!) && readiness.ready
        ? pages.kept({ path: req.url!, query: NO_QUERY, headers: req.headers })
        : null;
    if (!kept) return site(req, res);
    every.start(req, res, performance.now(), () => kept.route);
    pages.sendKept(req, res, kept);
  };
}

/**
 * The backend when configured, else the content file; with the pictures made here of their photos.
 * The backend's photos are shown only once made; the content file's own pictures until then.
 */
function madeHeroSource(
  config: AppDeps['config'],
  content: AppDeps['content'],
  backend: BackendConnection | null,
  options: HeroSourceOptions,
  made: { photos: Photos } | null,
): HeroSource {
  const given = backend ? backendHeroSource(config, backend, options) : embeddedHeroSource(content);
  return made ? withPhotos(given, made.photos, backend ? 'hide' : 'keep') : given;
}
