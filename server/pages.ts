import type { Request, Response } from 'express';
import type { AppData } from '../client/app-data.tsx';
import type { ClientAssets } from './assets.ts';
import type { Config } from './config.ts';
import type { SiteContent } from './content.ts';
import type { HeroAssetSource } from './hero-assets.ts';
import type { Translations } from './i18n.ts';
import { languageCookie, resolveLanguage } from './language.ts';
import type { Logger } from './logger.ts';
import { pageKindFor, sendPage } from './render.tsx';

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
