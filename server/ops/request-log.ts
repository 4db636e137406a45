import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.ts';

/** Longer paths are cut in the log: a line stays a line. */
const MAX_LOGGED_PATH = 1024;

/** What a request's line says besides its answer's status. */
export interface LoggedRequest {
  requestId: string;
  /** The path without the query. */
  path: string;
  ip: string | undefined;
  /** When the request was taken up (performance.now()). */
  startedMs: number;
}

/**
 * The request's one JSON line, written once its answer has closed: completed, or aborted when
 * the connection closed first; at info, or at error for a 5xx. Method, path (without the query),
 * status, duration, client address and request id: no header is logged, so neither cookies nor
 * credentials reach the log.
 */
export function logAnswer(logger: Logger, req: IncomingMessage, res: ServerResponse, request: LoggedRequest): void {
  const status = res.statusCode;
  const fields = {
    requestId: request.requestId,
    method: req.method,
    path: request.path.length > MAX_LOGGED_PATH ? request.path.slice(0, MAX_LOGGED_PATH) : request.path,
    status,
    durationMs: Math.round(performance.now() - request.startedMs),
    ip: request.ip,
  };
  const completed = !req.readableAborted && res.writableFinished;
  logger[status >= 500 ? 'error' : 'info'](fields, completed ? 'request completed' : 'request aborted');
}

/** The path of a request's URL, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
