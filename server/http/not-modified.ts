import type { IncomingHttpHeaders } from 'node:http';
import fresh from 'fresh';

/** The validators of an answer, as its headers carry them. */
export interface Validators {
  etag?: string;
  'last-modified'?: string;
}

/**
 * Whether a GET's conditions say the client holds the answer already (a 304 is due): its
 * If-None-Match names the answer's ETag or, without one, its If-Modified-Since is not before the
 * Last-Modified. Unlike Express's `req.fresh`, the request's `Cache-Control: no-cache` leaves the
 * answer fresh: that directive asks caches to validate (RFC 9111 5.2.1.4), which is what the
 * origin does here, and browsers send it with every fetch whose cache mode is 'no-store' (the
 * page's polls of /api/live) and with a reload.
 */
export function isNotModified(request: IncomingHttpHeaders, validators: Validators): boolean {
  const conditions = {
    'if-none-match': request['if-none-match'],
    'if-modified-since': request['if-modified-since'],
  };
  return fresh(conditions, { ...validators });
}

/** The validators an answer being put together carries so far. */
export function validatorsOf(res: { getHeader(name: string): unknown }): Validators {
  const etag = res.getHeader('ETag');
  const lastModified = res.getHeader('Last-Modified');
  return {
    etag: typeof etag === 'string' ? etag : undefined,
    'last-modified': typeof lastModified === 'string' ? lastModified : undefined,
  };
}
