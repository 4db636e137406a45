import path from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler } from 'express';
import { DEFAULT_LANGUAGE } from '../shared/languages.ts';
import { localesRouter } from './locales.ts';
import { pageHandler, type PageDeps } from './pages.ts';
import { CLIENT_BUILD_DIR, PUBLIC_DIR } from './paths.ts';
import { keepRedirectsOnOrigin } from './redirects.ts';
import { sendErrorPage } from './render.tsx';
import { hashedAssets } from './static-assets.ts';

export type AppDeps = PageDeps;

/** The whole request pipeline, in order. It never listens: server/index.ts does. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  keepRedirectsOnOrigin(app, deps.config.publicOrigin);

  app.use(compression());

  // Hashed names change with their content: a year, immutable, precompressed copies as they are.
  app.use('/assets', hashedAssets(path.join(CLIENT_BUILD_DIR, 'assets')));
  app.use('/locales', localesRouter(deps.translations));
  // Images keep their names when editors replace them: an hour. No directory redirects at all.
  app.use(express.static(PUBLIC_DIR, { maxAge: '1h', index: false, redirect: false }));

  app.get('/{*splat}', pageHandler(deps));

  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    deps.logger.error({ err: error }, 'request failed');
    sendErrorPage(res, error, { language: DEFAULT_LANGUAGE, assets: deps.clientAssets, showErrorStack: !deps.config.production });
  };
  app.use(onError);
  return app;
}
