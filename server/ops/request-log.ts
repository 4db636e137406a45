import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { assignRequestId } from '../http/request-id.ts';
import type { Logger } from './logger.ts';

/** Longer paths are cut in the log: a line stays a line. */
const MAX_LOGGED_PATH = 1024;

/**
 * One JSON line per request, written when its answer ends: method, path (without the query),
 * status, duration, client address and request id. No header is logged, so neither cookies
 * nor credentials reach the log. The request id comes from a valid inbound X-Request-Id (set
 * by the load balancer) or is generated, and is echoed in the answer.
 *
 * Written here rather than with pino-http, which builds and serializes two child loggers for
 * every request: on the page's hot path that was a tenth of the server's time.
 */
export function requestLog(logger: Logger, unloggedPaths: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const requestId = assignRequestId(req, res);
    const path = pathOf(req.originalUrl ?? req.url);
    if (!unloggedPaths.includes(path))
      logWhenAnswered(logger, req, res, { requestId, path, ip: req.ip, startedMs: performance.now() });
    next();
  };
}

/** What a request's line says besides its answer's status. */
interface LoggedRequest {
  requestId: string;
  /** The path without the query. */
  path: string;
  ip: string | undefined;
  /** When the request was taken up (performance.now()). */
  startedMs: number;
}

/**
 * Writes the request's line once its answer ends (completed), or its connection closes first
 * (aborted): at info, or at error for a 5xx.
 */
function logWhenAnswered(logger: Logger, req: IncomingMessage, res: ServerResponse, request: LoggedRequest): void {
  const done = () => {
    res.off('finish', done);
    res.off('close', done);
    const status = res.statusCode;
    const fields = {
      requestId: request.requestId,
      method: req.method,
      path: request.path.length > MAX_LOGGED_PATH ? request.path.slice(0, MAX_LOGGED_PATH) : request.path,
      status,
      durationMs: Math.round(performance.now() - request.startedMs),
      ip: request.ip,
    };
    const completed = !req.readableAborted && res.writableEnded;
    logger[status >= 500 ? 'error' : 'info'](fields, completed ? 'request completed' : 'request aborted');
  };
  res.on('finish', done);
  res.on('close', done);
}

/** The path of a request's URL, without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
