import path from 'node:path';
import compression from 'compression';
import express from 'express';
import { errorHandler, onlyReadMethods } from './errors.ts';
import { closeConnectionsWhileDraining, healthRoutes, type Readiness } from './health.ts';
import { localesRouter } from './locales.ts';
import { pageHandler, type PageDeps } from './pages.ts';
import { CLIENT_BUILD_DIR, PUBLIC_DIR } from './paths.ts';
import { keepRedirectsOnOrigin } from './redirects.ts';
import { hashedAssets } from './static-assets.ts';

export interface AppDeps extends PageDeps {
  readiness: Readiness;
}

/** The whole request pipeline, in order. It never listens: server/index.ts does. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  keepRedirectsOnOrigin(app, deps.config.publicOrigin);

  // While shutting down, answers close their connections so clients reconnect elsewhere.
  app.use(closeConnectionsWhileDraining(deps.readiness));
  // Before any route: a POST never reaches a handler and no body is ever read.
  app.use(onlyReadMethods);
  app.use(compression());

  app.use(healthRoutes(deps.readiness));

  // Hashed names change with their content: a year, immutable, precompressed copies as they are.
  app.use('/assets', hashedAssets(path.join(CLIENT_BUILD_DIR, 'assets')));
  app.use('/locales', localesRouter(deps.translations));
  // Images keep their names when editors replace them: an hour. No directory redirects at all.
  app.use(express.static(PUBLIC_DIR, { maxAge: '1h', index: false, redirect: false }));

  app.get('/{*splat}', pageHandler(deps));

  app.use(errorHandler({ logger: deps.logger, clientAssets: deps.clientAssets, showErrorStack: !deps.config.production }));
  return app;
}
