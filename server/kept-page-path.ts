import type { IncomingMessage, RequestListener } from 'node:http';
import type { Logger } from 'pino';
import type { Readiness } from './ops/health.ts';
import type { Metrics } from './ops/metrics.ts';
import { logWhenAnswered } from './ops/request-log.ts';
import type { FixedHeaders } from './ops/security-headers.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from './http/request-id.ts';
import { cachedPageAnswer, PAGE_ROUTE_PATHS, type PageAnswers } from './pages/page-handler.ts';

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
  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PAGE_URLS.has(req.url!) || !deps.readiness.ready) {
      app(req, res);
      return;
    }
    const startedMs = performance.now();
    deps.pages.kept({ path: req.url!, query: NO_QUERY, headers: req.headers }).then(
      (kept) => {
        // Shutdown may have begun meanwhile: Express then closes the connection with its answer.
        if (!kept || !deps.readiness.ready) return app(req, res);
        const requestId = requestIdFrom(req.headers);
        logWhenAnswered(deps.logger, req, res, { requestId, path: req.url!, ip: deps.clientAddress(req), startedMs });
        deps.metrics.observeAnswer(res, kept.route, startedMs);
        const answer = cachedPageAnswer(req.headers, kept.page, 200);
        res.writeHead(answer.status, [
          REQUEST_ID_HEADER,
          requestId,
          ...fixed,
          ...kept.headers.flat(),
          ...answer.headers.flat(),
        ]);
        res.end(answer.body);
      },
      () => app(req, res),
    );
  };
}
