import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type { Logger } from './logger.ts';

/** An inbound request id is kept only if it is this tame; anything else could forge log lines. */
const INBOUND_REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Longer paths are cut in the log: a line stays a line. */
const MAX_LOGGED_PATH = 1024;

/**
 * One JSON line per request, written when its answer ends: method, path (without the query),
 * status, duration, client address and request id. No header is logged, so neither cookies
 * nor credentials reach the log. The request id comes from a valid inbound X-Request-Id (set
 * by the load balancer) or is generated, and is echoed in the answer.
 */
export function requestLog(logger: Logger, unloggedPaths: readonly string[]): HttpLogger<Request, Response> {
  return pinoHttp<Request, Response>({
    logger,
    genReqId(req, res) {
      const inbound = req.headers['x-request-id'];
      const id = typeof inbound === 'string' && INBOUND_REQUEST_ID.test(inbound) ? inbound : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    autoLogging: { ignore: (req) => unloggedPaths.includes(pathOf(req)) },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (req, res, { responseTime }) => accessLine(req, res, responseTime),
    customErrorObject: (req, res, _error, { responseTime }) => accessLine(req, res, responseTime),
    customSuccessMessage: completion,
    customErrorMessage: completion,
  });
}

/** Every access line has one of two messages, so they are easy to find among the others. */
function completion(req: Request, res: Response): string {
  return !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
}

function accessLine(req: Request, res: Response, durationMs: number) {
  return { method: req.method, path: pathOf(req).slice(0, MAX_LOGGED_PATH), status: res.statusCode, durationMs, ip: req.ip };
}

function pathOf(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
