import type { Request, Response } from 'express';
import type { AppData } from '../client/app-data.tsx';
import type { ClientAssets } from './assets.ts';
import type { Config } from './config.ts';
import type { SiteContent } from './content.ts';
import type { HeroAssetSource } from './hero-assets.ts';
import type { Translations } from './i18n.ts';
import { languageCookie, resolveLanguage } from './language.ts';
import type { Logger } from './logger.ts';
import { NOT_FOUND_ROUTE, setRouteLabel } from './metrics.ts';
import { pageKindFor, sendPage, type PageKind } from './render.tsx';

/** The route template each page is counted under in the metrics. */
const ROUTE_LABELS: Record<PageKind, string> = { landing: '/', impressum: '/impressum', notFound: NOT_FOUND_ROUTE };

export interface PageDeps {
  config: Config;
  content: SiteContent;
  translations: Translations;
  clientAssets: ClientAssets;
  heroAssets: HeroAssetSource;
  logger: Logger;
}

/** Every page: the language from ?lng= or the cookie, the page from the route tree, rendered on the server. */
export function pageHandler(deps: PageDeps) {
  return async (req: Request, res: Response) => {
    const choice = resolveLanguage(req);
    const kind = pageKindFor(req.path);
    setRouteLabel(res, ROUTE_LABELS[kind]);
    const heroAssets = await deps.heroAssets.get();
    const data: AppData = { content: deps.content.public, ...heroAssets };

    if (choice.fromQuery) res.append('Set-Cookie', languageCookie(choice.language, false));
    // The HTML depends on the language cookie: browsers may keep it, shared caches may not.
    res.setHeader('Cache-Control', kind === 'notFound' ? 'no-store' : 'private, no-cache');

    sendPage(
      res,
      {
        url: req.originalUrl,
        kind,
        language: choice.language,
        languageChosen: choice.chosen,
        data,
        i18n: deps.translations.forRequest(choice.language),
        translations: deps.translations.resources(choice.language),
        assets: deps.clientAssets,
        showErrorStack: !deps.config.production,
      },
      kind === 'notFound' ? 404 : 200,
      deps.logger,
    );
  };
}
