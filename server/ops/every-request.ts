import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { assignRequestId } from '../http/request-id.ts';
import { routeLabelOf } from '../http/route-label.ts';
import { closeConnectionsWhileDraining, HEALTH_PATHS, type Readiness } from './health.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { logAnswer, pathOf } from './request-log.ts';

export interface EveryRequestDeps {
  logger: Logger;
  metrics: Metrics;
  readiness: Readiness;
  /** Sets the security headers, at once (helmet's middleware: server/ops/security-headers.ts). */
  securityHeaders: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  /** A rehearsal's answers are kept from search engines: its clock is not the event's. */
  noindex: boolean;
  /** The client's address, through the trusted proxies only. */
  clientAddress(req: IncomingMessage): string;
}

export interface EveryRequest {
  /**
   * What every request gets before its route, in this order: its id (echoed in X-Request-Id),
   * the security headers, a rehearsal's noindex, `Connection: close` once the server drains, its
   * log line (the probes' aside) and its count and time under the route template `route` names
   * when the answer ends. `startedMs` is when the request was taken up (performance.now()).
   */
  start(req: IncomingMessage, res: ServerResponse, startedMs: number, route: () => string): void;
  /** `start` as the Express app's first middleware, its route read from Express's routing. */
  middleware: RequestHandler;
}

export function everyRequest(deps: EveryRequestDeps): EveryRequest {
  const underWay = closeConnectionsWhileDraining(deps.readiness);
  const start: EveryRequest['start'] = (req, res, startedMs, route) => {
    const requestId = assignRequestId(req, res);
    deps.securityHeaders(req, res, (error) => {
      if (error) throw error;
    });
    if (deps.noindex) res.setHeader('X-Robots-Tag', 'noindex');
    underWay.add(res);
    const path = pathOf(req.url!);
    const line = HEALTH_PATHS.includes(path) ? null : { requestId, path, ip: deps.clientAddress(req), startedMs };
    const closed = () => {
      underWay.delete(res);
      if (line) logAnswer(deps.logger, req, res, line);
      deps.metrics.count(route(), res.statusCode, startedMs);
    };
    res.once('close', closed);
  };
  return {
    start,
    middleware(req, res, next) {
      start(req, res, performance.now(), () => routeLabelOf(req, res));
      next();
    },
  };
}
