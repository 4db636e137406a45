import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Readiness } from './ops/health.ts';
import type { Metrics } from './ops/metrics.ts';
import { logAnswer, logWhenAnswered, type LoggedRequest } from './ops/request-log.ts';
import type { FixedHeaders } from './ops/security-headers.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from './http/request-id.ts';
import { TurnMemo } from './http/turn-memo.ts';
import { headKey, WrittenHeads, type HeadedAnswer } from './http/written-heads.ts';
import { CODINGS, preferredCoding } from './http/content-coding.ts';
import { cachedPageAnswer, PAGE_ROUTE_PATHS, type KeptPage, type PageAnswers } from './pages/page-handler.ts';

export interface KeptPagePathDeps {
  pages: PageAnswers;
  logger: Logger;
  metrics: Metrics;
  readiness: Readiness;
  /** What Express sets on every answer before a route's own headers: the security headers, a rehearsal's noindex. */
  fixed: FixedHeaders;
  /** The client's address, read as Express reads `req.ip`, through the trusted proxies only. */
  clientAddress(req: IncomingMessage): string | undefined;
}

/** The pages' own paths, exactly as a browser asks for them. */
const PAGE_URLS = new Set<string>(PAGE_ROUTE_PATHS);

/** A page request's query, which the kept-page path never has. */
const NO_QUERY = Object.freeze({});

/** One way a kept page is answered: its status, every header in order (the request id's value left blank), its body. */
interface PreparedAnswer extends HeadedAnswer {
  headers: string[];
}

/** A kept page as the requests of one turn share it, with its answers put together once each. */
interface SharedPage {
  kept: KeptPage;
  /** By the body sent: one per coding, and none for a visitor who has the page (304). */
  answers: Map<Buffer | undefined, PreparedAnswer>;
}

/** Where the request id's value goes in a prepared answer's headers. */
const REQUEST_ID_VALUE = 1;

/**
 * The site, with a shorter way for what most requests ask for: a page at its own path, with no
 * query, whose bytes are kept already. Such a request is answered here with the same status,
 * headers and body as through Express (the request id, the security headers, the page's own
 * headers, a 304 when the visitor has the page), logged in the same line and counted in the same
 * metrics, without passing the dozen middlewares and the router it would otherwise run through:
 * that path cost the origin more than the page's bytes. Anything else (another method or path, a
 * query, a page to render, a server shutting down) goes to Express as it came.
 *
 * The requests read in one turn of the event loop that ask for the same page with the same
 * language cookie share one look-up of the page and its headers (server/http/turn-memo.ts): under
 * load a turn reads dozens, and each then costs little more than its own request id and log line.
 * An answer whose head Node's writeHead already put together this second is written to its socket
 * whole, a copy of that head with the request's own id (server/http/written-heads.ts).
 */
export function keptPagesFirst(app: RequestListener, deps: KeptPagePathDeps): RequestListener {
  const fixed = deps.fixed.set.flat();
  const shared = new TurnMemo<SharedPage | null>();
  const heads = new WrittenHeads(REQUEST_ID_HEADER);

  const prepared = (page: SharedPage, req: IncomingMessage): PreparedAnswer => {
    // Without a condition the answer is the page in the client's coding: found without working out the rest.
    if (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === undefined) {
      const coding = preferredCoding(req, CODINGS);
      const made = page.answers.get(coding ? page.kept.page[coding] : page.kept.page.identity);
      if (made) return made;
    }
    const answer = cachedPageAnswer(req.headers, page.kept.page, 200);
    let made = page.answers.get(answer.body);
    if (!made) {
      const headers = [REQUEST_ID_HEADER, '', ...fixed, ...page.kept.headers.flat(), ...answer.headers.flat()];
      made = { status: answer.status, headers, key: headKey(answer.status, headers), body: answer.body };
      page.answers.set(answer.body, made);
    }
    return made;
  };

  const answer = (
    req: IncomingMessage,
    res: ServerResponse,
    page: SharedPage | null | undefined,
    startedMs: number,
  ) => {
    // Shutdown may have begun meanwhile: Express then closes the connection with its answer.
    if (!page || !deps.readiness.ready) return app(req, res);
    const line: LoggedRequest = {
      requestId: requestIdFrom(req.headers),
      path: req.url!,
      ip: deps.clientAddress(req),
      startedMs,
    };
    if (res.destroyed) {
      // The client left while the page was looked up: said at once, as aborted.
      logWhenAnswered(deps.logger, req, res, line);
      return deps.metrics.observeAnswer(res, page.kept.route, startedMs);
    }
    const made = prepared(page, req);
    if (!heads.write(req, res, made, line.requestId)) {
      // writeHead reads the headers at once and keeps none of them: the shared list takes this
      // request's id for the call, instead of a copy of the list for every request.
      made.headers[REQUEST_ID_VALUE] = line.requestId;
      res.writeHead(made.status, made.headers);
      heads.learn(req, res, made, line.requestId);
      res.end(made.body);
    }
    // Every byte went to the socket at once (the answer is complete, as 'finish' will say): logged
    // and counted now; otherwise when the answer ends, as through Express.
    if (res.writableLength === 0 && !res.destroyed) {
      const durationMs = performance.now() - startedMs;
      logAnswer(deps.logger, req, res, line, durationMs, true);
      deps.metrics.countAnswer(page.kept.route, res.statusCode, durationMs);
    } else {
      logWhenAnswered(deps.logger, req, res, line);
      deps.metrics.observeAnswer(res, page.kept.route, startedMs);
    }
  };

  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PAGE_URLS.has(req.url!) || !deps.readiness.ready) {
      app(req, res);
      return;
    }
    const startedMs = performance.now();
    const page = shared.get(`${req.url!}\n${req.headers.cookie ?? ''}`, () =>
      deps.pages
        .kept({ path: req.url!, query: NO_QUERY, headers: req.headers })
        .then((kept) => kept && { kept, answers: new Map() }),
    );
    if (page.settled) return answer(req, res, page.value, startedMs);
    page.promise.then(
      (value) => answer(req, res, value, startedMs),
      () => app(req, res),
    );
  };
}
