import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from './request-id.ts';

const READ_METHODS = ['GET', 'HEAD'];

/** Everything the site serves is read-only: any other method is a 405 naming the ones there are. */
export const onlyReadMethods: RequestHandler = (req, res, next) => {
  if (READ_METHODS.includes(req.method)) return next();
  res.setHeader('Allow', READ_METHODS.join(', '));
  sendPlainStatus(res, 405);
};

export interface ErrorHandlerDeps {
  logger: Logger;
  /** Answers with the application's error page, for the error given. */
  sendErrorPage(res: Response, error: unknown): void;
}

/**
 * The last handler. A client's mistake that Express or a static file detected, such as a
 * malformed percent-encoding (400), gets its own 4xx status and a short answer; anything else
 * is unexpected: it is logged and answered with the error page (500).
 */
export function errorHandler({ logger, sendErrorPage }: ErrorHandlerDeps): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = clientErrorStatus(error);
    if (status !== undefined && !res.headersSent) return sendPlainStatus(res, status);
    logger.error({ err: error, requestId: requestIdOf(res) }, 'request failed');
    sendErrorPage(res, error);
  };
}

function clientErrorStatus(error: unknown): number | undefined {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  return typeof code === 'number' && code >= 400 && code < 500 ? code : undefined;
}

function sendPlainStatus(res: Response, status: number): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  res.type('text/plain').send(STATUS_CODES[status] ?? String(status));
}
