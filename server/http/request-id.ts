import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** An inbound request id is kept only if it is this tame; anything else could forge log lines. */
const INBOUND_REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Each answer's request id, for the lines logged while handling it. */
const requestIds = new WeakMap<ServerResponse, string>();

/**
 * Gives the request its id, from a valid inbound X-Request-Id (set by the load balancer) or a new
 * one, and echoes it in the answer.
 */
export function assignRequestId(req: { headers: IncomingHttpHeaders }, res: ServerResponse): string {
  const requestId = requestIdFrom(req.headers);
  res.setHeader(REQUEST_ID_HEADER, requestId);
  requestIds.set(res, requestId);
  return requestId;
}

/** A valid inbound X-Request-Id, or a new id. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const inbound = headers['x-request-id'];
  return typeof inbound === 'string' && INBOUND_REQUEST_ID.test(inbound) ? inbound : randomUUID();
}

/** The id of the request an answer belongs to, for log lines written while handling it. */
export function requestIdOf(res: ServerResponse): string | undefined {
  return requestIds.get(res);
}
