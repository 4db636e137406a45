import http, { type RequestListener } from 'node:http';
import type { Config } from '../config.ts';

/** Node's default, set here so that NODE_OPTIONS cannot raise it: larger request headers get 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The HTTP server around the app, with the connection limits of the configuration. */
export function createHttpServer(app: RequestListener, config: Config): http.Server {
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
    },
    app,
  );
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  return server;
}
