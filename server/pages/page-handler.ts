import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { ClientAssets } from '../static/client-assets.ts';
import type { Config } from '../config/environment.ts';
import type { SiteContent } from '../content/site-content.ts';
import type { HeroSource } from '../hero/hero-source.ts';
import type { LiveSource } from '../live/live-source.ts';
import type { BroadcastMoment } from '../../shared/broadcast-texts.ts';
import { eventWithLive, momentWithLive, type LiveState } from '../../shared/live-state.ts';
import type { Translations } from '../content/translations.ts';
import { languageCookie } from '../../shared/language-cookie.ts';
import { resolveLanguage, type LanguageChoice, type LanguageSources } from '../http/request-language.ts';
import type { Logger } from 'pino';
import { choseCoding, CODINGS, preferredCoding } from '../http/content-coding.ts';
import { contentVersioner, PageCache, type CachedPage } from './page-cache.ts';
import { pageKindFor, type PageRequest } from './page-request.ts';
import { errorPageOptions, renderPageToBuffer, sendErrorPage } from './render.tsx';
import type { PageAssets } from '../../shared/page-data.ts';
import { NOT_FOUND_ROUTE, setRouteLabel } from '../http/route-label.ts';
import { PAGE_PATHS, type PageKind } from '../../shared/routes.ts';
import {
  clockStep,
  eventClockWithStatus,
  PAGE_COUNTDOWN_STEP_MS,
  phaseChangesAt,
  type EventClock,
} from '../../shared/event-clock.ts';
import { eventNow, type Rehearsal } from '../../shared/rehearsal.ts';
import { edgeHeaders, edgeSeconds, namesLanguage } from './edge-lifetime.ts';
import { isNotModified } from '../http/not-modified.ts';

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
  /**
   * The real clock (ms since the epoch). The event's phase, countdown and the page's edge lifetime
   * are read from the event clock, which a rehearsal (`PageDeps.rehearsal`) shifts from it.
   */
  now?: () => number;
}

/** A page request as far as its answer depends on it: the path, the parsed query and the headers. */
export interface PageAsk extends LanguageSources {
  path: string;
}

export interface PageAnswers {
  /** Every page request, as Express routes it: kept, or rendered and kept. */
  handle(req: Request, res: Response): Promise<void>;
  /**
   * The page a request for a page's own path shows, when its bytes are kept already and what it
   * shows is at hand without waiting (the sources' current values); null when it must be rendered,
   * waited for, or is no page. Of the request it reads the path and the Cookie header only.
   */
  kept(ask: PageAsk): KeptPage | null;
  /** Sends a kept page, or a 304 when the visitor has it. */
  sendKept(req: IncomingMessage, res: ServerResponse, kept: KeptPage): void;
}

/** A kept page ready to be sent as it is, with the headers this request gets before its entity headers. */
export interface KeptPage {
  /** The route template the answer is counted under. */
  route: string;
  headers: [string, string][];
  page: CachedPage;
}

/** What a page request is answered with, decided once for both ways a page is sent. */
interface PagePlan {
  kind: PageKind;
  status: number;
  choice: LanguageChoice;
  assets: PageAssets;
  live: LiveState;
  clock: EventClock | null;
  moment: BroadcastMoment;
  /** The headers that depend on the request and the clock, in the order they are set. */
  headers: [string, string][];
  /** The kept page's key and the version of what it shows. */
  variant: string;
  version: string;
}

/**
 * Every page: the language from ?lng= or the cookie, the page from the route tree. The rendered,
 * compressed HTML is kept per variant and content version, and a request that finds it costs no
 * render at all.
 * The landing page shows the event's clock, so its variant also names the clock's step: a new
 * phase or countdown text is a new page, rendered once, and an earlier one is never served.
 * The countdown in it is exact to its own step (a day, or a minute) when it is sent. The live
 * state's version is part of every page's version: no page rendered with an earlier notice or
 * status is served once the live state has changed.
 */
export function pageAnswers(deps: PageDeps, { now = Date.now }: PageHandlerOptions = {}): PageAnswers {
  const pages = new PageCache();
  const versionOf = contentVersioner();

  const planWith = (kind: PageKind, ask: PageAsk, assets: PageAssets, live: LiveState): PagePlan => {
    const choice = resolveLanguage(ask, deps.translations.languages);
    const status = kind === 'notFound' ? 404 : 200;

    const renderedAt = now();
    const at = eventNow(deps.rehearsal?.shiftMs, renderedAt);
    const event = eventWithLive(deps.content.public.event, live);
    const eventClock = eventClockWithStatus(at, event, PAGE_COUNTDOWN_STEP_MS);
    // The landing page shows the clock; every page's texts of the broadcast follow its phase.
    const clock = kind === 'landing' ? eventClock : null;
    const moment = momentWithLive(eventClock.phase, live, deps.content.public);
    const changesAt = clock ? clock.changesAt : phaseChangesAt(eventClock.phase, event);

    // The edge counts a page's lifetime from its Date: the second the clock was read, not the
    // later one a slow render may be sent in, which would keep the page past its next change.
    const headers: [string, string][] = [['Date', new Date(renderedAt).toUTCString()]];
    if (choice.fromQuery) headers.push(['Set-Cookie', languageCookie(choice.language, false)]);
    // A shared cache that keys by the language cookie's value (the shipped VCL and nginx
    // configuration) may keep a page for seconds, never past its next change; an answer that
    // sets the cookie, is asked for with ?lng= or with a cookie naming a language not offered
    // stays with its visitor.
    if (status === 200 && !choice.fromQuery && !choice.unoffered && !namesLanguage(ask)) {
      headers.push(...edgeHeaders(edgeSeconds(at, changesAt, deps.config.pageEdgeSeconds)));
    }
    // The HTML depends on the language cookie: browsers may keep it only to revalidate it, and
    // a shared cache that does not read the edge's own headers passes it.
    headers.push(['Cache-Control', kind === 'notFound' ? 'no-store' : 'private, no-cache']);

    const variant = `${kind}|${choice.language}|${choice.chosen ? 'chosen' : 'overlay'}`;
    const shown = `${versionOf(assets)}|${live.version}`;
    const version = `${shown}|${clock ? clockStep(clock) : moment}`;
    return { kind, status, choice, assets, live, clock, moment, headers, variant, version };
  };
  const plan = async (kind: PageKind, ask: PageAsk): Promise<PagePlan> => {
    const [assets, live] = await Promise.all([deps.heroSource.get(), deps.liveSource.get()]);
    return planWith(kind, ask, assets, live);
  };

  return {
    handle: async (req, res) => {
      const kind = pageKindFor(req.path);
      setRouteLabel(res, ROUTE_LABELS[kind]);
      const planned = await plan(kind, req);
      for (const [name, value] of planned.headers) res.setHeader(name, value);

      const page = (url: string) => pageRequest(deps, url, planned);

      let cached: CachedPage;
      try {
        cached = await pages.get(planned.variant, planned.version, () =>
          renderPageToBuffer(page(RENDER_PATH[kind]), deps.logger),
        );
      } catch (error) {
        return sendErrorPage(res, error, errorPageOptions(page(req.originalUrl)));
      }
      sendCached(req, res, cached, planned.status);
    },

    kept: (ask) => {
      const assets = deps.heroSource.current();
      const live = deps.liveSource.current();
      if (!assets || !live) return null;
      const kind = pageKindFor(ask.path);
      const planned = planWith(kind, ask, assets, live);
      const page = planned.status === 200 ? pages.ready(planned.variant, planned.version) : undefined;
      return page ? { route: ROUTE_LABELS[kind], headers: planned.headers, page } : null;
    },

    sendKept: (req, res, kept) => {
      for (const [name, value] of kept.headers) res.setHeader(name, value);
      sendCached(req, res, kept.page, 200);
    },
  };
}

function pageRequest(
  deps: PageDeps,
  url: string,
  { kind, choice, assets, live, clock, moment }: PagePlan,
): PageRequest {
  return {
    url,
    kind,
    moment,
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
  };
}

/** Sends a kept page, or a 304 when the visitor has it, with the headers set so far. */
function sendCached(req: IncomingMessage, res: ServerResponse, page: CachedPage, status: number): void {
  const answer = cachedPageAnswer(req.headers, page, status);
  choseCoding(res);
  res.statusCode = answer.status;
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.end(answer.body);
}

/** A kept page's status, entity headers and body. */
export interface CachedPageAnswer {
  status: number;
  headers: [string, string][];
  /** Nothing for a 304. */
  body: Buffer | undefined;
}

/**
 * The kept bytes in the best encoding the visitor accepts, or a 304 when they already have them
 * (the page's ETag matches: server/http/not-modified.ts).
 */
export function cachedPageAnswer(
  requestHeaders: IncomingHttpHeaders,
  page: CachedPage,
  status: number,
): CachedPageAnswer {
  const headers: [string, string][] = [
    ['ETag', page.etag],
    ['Content-Type', 'text/html; charset=utf-8'],
    ['Vary', 'Accept-Encoding'],
  ];
  if (status === 200 && isNotModified(requestHeaders, { etag: page.etag }))
    return { status: 304, headers, body: undefined };
  const coding = preferredCoding({ headers: requestHeaders }, CODINGS);
  const body = coding ? page[coding] : page.identity;
  if (coding) headers.push(['Content-Encoding', coding]);
  headers.push(['Content-Length', String(body.length)]);
  return { status, headers, body };
}
