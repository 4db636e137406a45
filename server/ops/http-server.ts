import http, { type RequestListener } from 'node:http';
import type { Config } from '../config/environment.ts';

/** Node's default, set here so that NODE_OPTIONS cannot raise it: larger request headers get 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * How often Node looks for requests past HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS. Its default
 * (30 s) lets a client that sends a byte at a time hold a socket up to 30 s past either; this
 * keeps both within half a second of their setting, for one pass over the open connections.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 500;

/** An HTTP server around `app` (the site, or the metrics), with the connection limits of the configuration. */
export function createHttpServer(app: RequestListener, config: Config): http.Server {
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Node keeps an idle connection a second longer than keepAliveTimeout by default; the
      // setting is already chosen above the balancer's idle timeout, so it is kept as it is said.
      keepAliveTimeoutBuffer: 0,
    },
    app,
  );
  return server;
}
