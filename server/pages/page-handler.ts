import type { Request, Response } from 'express';
import type { ClientAssets } from '../static/client-assets.ts';
import type { Config } from '../config/environment.ts';
import type { SiteContent } from '../content/site-content.ts';
import type { HeroSource } from '../hero/hero-source.ts';
import type { LiveSource } from '../live/live-source.ts';
import { eventWithLive, type LiveState } from '../../shared/live-state.ts';
import { eventFactsWithLive } from '../live/event-facts.ts';
import type { Translations } from '../content/translations.ts';
import { languageCookie } from '../../shared/language-cookie.ts';
import { resolveLanguage, type LanguageChoice } from '../http/request-language.ts';
import type { Logger } from 'pino';
import { sendEncoded } from '../http/content-coding.ts';
import { contentVersioner, PageCache, type CachedPage } from './page-cache.ts';
import { pageKindFor, type PageRequest } from './page-request.ts';
import { errorPageOptions, renderPageToBuffer, sendErrorPage, streamPage } from './render.tsx';
import type { PageAssets } from '../../shared/page-data.ts';
import { NOT_FOUND_ROUTE, setRouteLabel } from '../http/route-label.ts';
import { PAGE_PATHS, type PageKind } from '../../shared/routes.ts';
import { clockStep, eventClockWithStatus, PAGE_COUNTDOWN_STEP_MS, type EventClock } from '../../shared/event-clock.ts';
import type { Rehearsal } from '../../shared/rehearsal.ts';
import { edgeSeconds, namesLanguage, offerToEdge } from './edge-lifetime.ts';

export interface PageDeps {
  config: Config;
  content: SiteContent;
  translations: Translations;
  clientAssets: ClientAssets;
  heroSource: HeroSource;
  /** The notice and status the event team changes without a restart. */
  liveSource: LiveSource;
  logger: Logger;
  /** A rehearsal (REHEARSAL_CLOCK): every page is marked and kept from search engines; none by default. */
  rehearsal?: Rehearsal | null;
}

/**
 * The address each page variant is rendered at. A cached page is shared by every address
 * that shows it, so it is rendered at one of them; nothing in the HTML depends on which.
 */
const RENDER_PATH: Record<PageKind, string> = { ...PAGE_PATHS, notFound: '/404' };

/** The route template each page is counted under in the metrics. */
const ROUTE_LABELS: Record<PageKind, string> = { ...PAGE_PATHS, notFound: NOT_FOUND_ROUTE };

/** The paths of the pages, 404 aside, as Express matches them. */
export const PAGE_ROUTE_PATHS = Object.values(PAGE_PATHS);

export interface PageHandlerOptions {
  /** Keep rendered pages (the default); off, every request streams a render. */
  cache?: boolean;
  /**
   * The clock the event's phase and countdown are read from (ms since the epoch): the event
   * clock, which a rehearsal shifts (app.ts gives it so); the page's edge lifetime is counted on it too.
   */
  now?: () => number;
}

/**
 * Every page: the language from ?lng= or the cookie, the page from the route tree. With the
 * cache (the default) the rendered, compressed HTML is kept per variant and content version,
 * and a request that finds it costs no render at all; without it every request streams a render.
 * The landing page shows the event's clock, so its variant also names the clock's step: a new
 * phase or countdown text is a new page, rendered once, and an earlier one is never served.
 * The countdown in it is exact to its own step (a day, or a minute) when it is sent. The live
 * state's version is part of every page's version: no page rendered with an earlier notice or
 * status is served once the live state has changed.
 */
export function pageHandler(deps: PageDeps, { cache = true, now = Date.now }: PageHandlerOptions = {}) {
  const pages = new PageCache();
  const versionOf = contentVersioner();

  return async (req: Request, res: Response) => {
    const choice = resolveLanguage(req, deps.translations.languages);
    const kind = pageKindFor(req.path);
    setRouteLabel(res, ROUTE_LABELS[kind]);
    const [assets, live] = await Promise.all([deps.heroSource.get(), deps.liveSource.get()]);
    const status = kind === 'notFound' ? 404 : 200;

    const at = now();
    const clock =
      kind === 'landing'
        ? eventClockWithStatus(at, eventWithLive(deps.content.public.event, live), PAGE_COUNTDOWN_STEP_MS)
        : null;

    if (choice.fromQuery) res.append('Set-Cookie', languageCookie(choice.language, false));
    // A shared cache that keys by the language cookie's value (the shipped VCL and nginx
    // configuration) may keep a page for seconds, never past its next change; an answer that
    // sets the cookie, is asked for with ?lng= or with a cookie naming a language not offered
    // stays with its visitor.
    if (status === 200 && !choice.fromQuery && !choice.unoffered && !namesLanguage(req)) {
      offerToEdge(res, edgeSeconds(at, clock ? clock.changesAt : null, deps.config.pageEdgeSeconds));
    }
    // The HTML depends on the language cookie: browsers may keep it only to revalidate it, and
    // a shared cache that does not read the edge's own headers passes it.
    res.setHeader('Cache-Control', kind === 'notFound' ? 'no-store' : 'private, no-cache');

    const page = (url: string) => pageRequest(deps, url, kind, choice, assets, live, clock);
    if (!cache) return streamPage(res, page(req.originalUrl), status, deps.logger);

    const variant = `${kind}|${choice.language}|${choice.chosen ? 'chosen' : 'overlay'}`;
    const shown = `${versionOf(assets)}|${live.version}`;
    const version = clock ? `${shown}|${clockStep(clock)}` : shown;
    let cached: CachedPage;
    try {
      cached = await pages.get(variant, version, () => renderPageToBuffer(page(RENDER_PATH[kind]), deps.logger));
    } catch (error) {
      return sendErrorPage(res, error, errorPageOptions(page(req.originalUrl)));
    }
    sendCachedPage(req, res, cached, status);
  };
}

function pageRequest(
  deps: PageDeps,
  url: string,
  kind: PageKind,
  choice: LanguageChoice,
  assets: PageAssets,
  live: LiveState,
  clock: EventClock | null,
): PageRequest {
  return {
    url,
    kind,
    bootstrap: {
      language: choice.language,
      languageChosen: choice.chosen,
      app: { content: deps.content.public, ...assets, live, clock, rehearsal: deps.rehearsal ?? null },
      translations: deps.translations.resources(choice.language),
      livePollSeconds: deps.config.live.pollSeconds,
    },
    i18n: deps.translations.forRequest(choice.language),
    assets: deps.clientAssets,
    showErrorStack: !deps.config.production,
    publicOrigin: deps.config.publicOrigin,
    event: eventFactsWithLive(deps.content.event, live),
  };
}

/** The cached bytes in the best encoding the visitor accepts, or 304 when they already have them. */
function sendCachedPage(req: Request, res: Response, page: CachedPage, status: number): void {
  res.status(status);
  res.setHeader('ETag', page.etag);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  if (status === 200 && req.fresh) {
    res.vary('Accept-Encoding');
    res.status(304).end();
    return;
  }
  sendEncoded(req, res, page);
}
