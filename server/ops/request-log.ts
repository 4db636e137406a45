import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import pino from 'pino';
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
export interface LoggedRequest {
  requestId: string;
  /** The path without the query. */
  path: string;
  ip: string | undefined;
  /** When the request was taken up (performance.now()). */
  startedMs: number;
}

/** Writes the request's line once its answer ends, or its connection closes first. */
export function logWhenAnswered(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  request: LoggedRequest,
): void {
  const done = () => {
    res.off('finish', done);
    res.off('close', done);
    logAnswer(
      logger,
      req,
      res,
      request,
      performance.now() - request.startedMs,
      !req.readableAborted && res.writableEnded,
    );
  };
  // Gone already (a client that left while a kept-page request waited for its data): said at once.
  if (res.destroyed) return done();
  res.on('finish', done);
  res.on('close', done);
}

/** pino's own parts of a line: the level's opening, the time, the bindings, the line's end, the destination. */
const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym } = pino.symbols;

/**
 * Writes the line of a request whose answer has ended (completed) or was cut off, at info, or at
 * error for a 5xx. The line is put together here with the logger's own parts (level, time,
 * bindings), byte for byte what `logger.info(fields, msg)` writes: on the page's hot path pino's
 * general serializer cost more than the rest of the line's work together.
 */
export function logAnswer(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  { requestId, path, ip }: LoggedRequest,
  durationMs: number,
  completed: boolean,
): void {
  const status = res.statusCode;
  const level = status >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const parts = logger as unknown as Record<symbol, unknown>;
  const logged = path.length > MAX_LOGGED_PATH ? path.slice(0, MAX_LOGGED_PATH) : path;
  // Request ids are tokens of letters, digits, '-' and '_' (server/http/request-id.ts) and methods
  // HTTP tokens: neither has a character JSON escapes.
  const line =
    (parts[lsCacheSym] as Record<number, string>)[logger.levels.values[level]!]! +
    timePart(parts[timeSym] as () => string) +
    (parts[chindingsSym] as string) +
    `,"requestId":"${requestId}","method":"${req.method}","path":${JSON.stringify(logged)}` +
    `,"status":${status},"durationMs":${Math.round(durationMs)}` +
    (ip === undefined ? '' : `,"ip":${JSON.stringify(ip)}`) +
    (completed ? ',"msg":"request completed"' : ',"msg":"request aborted"') +
    (parts[endSym] as string);
  (parts[streamSym] as { write(line: string): void }).write(line);
}

const { isoTime } = pino.stdTimeFunctions;
let isoTimeMs = Number.NaN;
let isoTimePart = '';

/** The line's time as the logger writes it; pino's ISO time is worked out once per millisecond. */
function timePart(time: () => string): string {
  if (time !== isoTime) return time();
  const now = Date.now();
  if (now !== isoTimeMs) {
    isoTimeMs = now;
    isoTimePart = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoTimePart;
}

/** The path of a request's URL, without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
