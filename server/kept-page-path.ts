import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Readiness } from './ops/health.ts';
import type { Metrics } from './ops/metrics.ts';
import { logAnswer, logWhenAnswered, type LoggedRequest } from './ops/request-log.ts';
import type { FixedHeaders } from './ops/security-headers.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from './http/request-id.ts';
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

/**
 * The site, with a shorter way for what most requests ask for: a page at its own path, with no
 * query, whose bytes are kept already. Such a request is answered here with the same status,
 * headers and body as through Express (the request id, the security headers, the page's own
 * headers, a 304 when the visitor has the page), logged in the same line and counted in the same
 * metrics, without passing the dozen middlewares and the router it would otherwise run through:
 * that path cost the origin more than the page's bytes. Anything else (another method or path, a
 * query, a page to render, a server shutting down) goes to Express as it came.
 */
export function keptPagesFirst(app: RequestListener, deps: KeptPagePathDeps): RequestListener {
  const fixed = deps.fixed.set.flat();

  const answer = (req: IncomingMessage, res: ServerResponse, kept: KeptPage | null, startedMs: number) => {
    // Shutdown may have begun meanwhile: Express then closes the connection with its answer.
    if (!kept || !deps.readiness.ready) return app(req, res);
    const line: LoggedRequest = {
      requestId: requestIdFrom(req.headers),
      path: req.url!,
      ip: deps.clientAddress(req),
      startedMs,
    };
    if (res.destroyed) {
      // The client left while the page was looked up: said at once, as aborted.
      logWhenAnswered(deps.logger, req, res, line);
      return deps.metrics.observeAnswer(res, kept.route, startedMs);
    }
    const made = cachedPageAnswer(req.headers, kept.page, 200);
    res.writeHead(made.status, [
      REQUEST_ID_HEADER,
      line.requestId,
      ...fixed,
      ...kept.headers.flat(),
      ...made.headers.flat(),
    ]);
    res.end(made.body);
    // Every byte went to the socket at once (the answer is complete, as 'finish' will say): logged
    // and counted now; otherwise when the answer ends, as through Express.
    if (res.writableLength === 0 && !res.destroyed) {
      const durationMs = performance.now() - startedMs;
      logAnswer(deps.logger, req, res, line, durationMs, true);
      deps.metrics.countAnswer(kept.route, res.statusCode, durationMs);
    } else {
      logWhenAnswered(deps.logger, req, res, line);
      deps.metrics.observeAnswer(res, kept.route, startedMs);
    }
  };

  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PAGE_URLS.has(req.url!) || !deps.readiness.ready) {
      app(req, res);
      return;
    }
    const startedMs = performance.now();
    deps.pages.kept({ path: req.url!, query: NO_QUERY, headers: req.headers }).then(
      (kept) => answer(req, res, kept, startedMs),
      () => app(req, res),
    );
  };
}
