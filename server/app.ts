import path from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler } from 'express';
import { DEFAULT_LANGUAGE } from '../shared/languages.ts';
import { apiRouter } from './api.ts';
import { ignoreCacheEvents, type CacheObserver } from './cache-events.ts';
import { heroAssetsFor, type HeroAssetSource } from './hero-assets.ts';
import { localesRouter } from './locales.ts';
import { pageHandler, type PageDeps } from './pages.ts';
import { CLIENT_BUILD_DIR, PUBLIC_DIR } from './paths.ts';
import { reachRoutes } from './reach-routes.ts';
import { sendErrorPage } from './render.tsx';

export interface AppDeps extends Omit<PageDeps, 'heroAssets'> {
  /** The hero's slides and logo; by default the backend when configured, else the content file. */
  heroAssets?: HeroAssetSource;
  /** Told how every /api answer was served and about every failed backend call. */
  cacheObserver?: CacheObserver;
  /** The backend caches' clock (ms since the epoch). */
  now?: () => number;
  /** Keep rendered pages (the default); off, every request renders. */
  pageCache?: boolean;
}

/** The whole request pipeline, in order. It never listens: server/index.ts does. */
export function createApp(appDeps: AppDeps): express.Express {
  const cacheObserver = appDeps.cacheObserver ?? ignoreCacheEvents;
  const heroAssets =
    appDeps.heroAssets ??
    heroAssetsFor(appDeps.config, appDeps.content, { logger: appDeps.logger, observer: cacheObserver, now: appDeps.now ?? Date.now });
  const deps: PageDeps = { ...appDeps, heroAssets };

  const app = express();
  app.disable('x-powered-by');

  app.use(compression());

  // Before the static folders: an /api request must not wait for a file lookup.
  app.use(apiRouter(heroAssets, deps.config.cache, cacheObserver));

  // Hashed file names change with their content, so browsers may keep them for a year.
  app.use('/assets', express.static(path.join(CLIENT_BUILD_DIR, 'assets'), { immutable: true, maxAge: '1y', index: false }));
  app.use('/locales', localesRouter(deps.translations));
  app.use(express.static(PUBLIC_DIR, { maxAge: '1h', index: false }));
  app.use(reachRoutes(deps));

  app.get('/{*splat}', pageHandler(deps, { cache: appDeps.pageCache ?? true }));

  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    deps.logger.error({ err: error }, 'request failed');
    sendErrorPage(res, error, { language: DEFAULT_LANGUAGE, assets: deps.clientAssets, showErrorStack: !deps.config.production });
  };
  app.use(onError);
  return app;
}
