import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { CacheObserver } from '../backend/cache-events.ts';

/** The route label of answers that matched nothing, whatever path was asked for. */
export const NOT_FOUND_ROUTE = 'not-found';
/** The route label of answers given before any route was chosen (405, 400). */
export const OTHER_ROUTE = 'other';

export interface Metrics {
  registry: Registry;
  /** Counts and times every request under its route template and status. */
  observeRequests: RequestHandler;
  /** Counts cache outcomes and backend failures of the cached /api endpoints. */
  cacheObserver: CacheObserver;
}

export interface MetricsSources {
  /** Log lines dropped since start, because the log's reader fell behind or went away. */
  droppedLogLines?: () => number;
}

/** One registry per app, so that apps built side by side (as in tests) never share counters. */
export function createMetrics({ droppedLogLines = () => 0 }: MetricsSources = {}): Metrics {
  const registry = new Registry();
  // Event-loop lag, heap and resident memory, CPU, open handles, garbage collection.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template and status',
    labelNames: ['route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by route template and status',
    labelNames: ['route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const cacheServed = new Counter({
    name: 'cache_served_total',
    help: 'Answers of the cached /api endpoints, by endpoint and outcome (hit, miss, stale, fallback)',
    labelNames: ['endpoint', 'outcome'],
    registers: [registry],
  });
  const upstreamErrors = new Counter({
    name: 'upstream_errors_total',
    help: 'Failed backend calls, by endpoint',
    labelNames: ['endpoint'],
    registers: [registry],
  });

  let droppedCounted = 0;
  new Counter({
    name: 'log_lines_dropped_total',
    help: 'Log lines dropped because the reader of stdout fell behind by more than LOG_BUFFER_BYTES, or went away',
    registers: [registry],
    collect() {
      const dropped = droppedLogLines();
      this.inc(dropped - droppedCounted);
      droppedCounted = dropped;
    },
  });

  return {
    registry,
    observeRequests(req, res, next) {
      const started = process.hrtime.bigint();
      res.once('close', () => {
        const labels = { route: routeLabel(req, res), status: String(res.statusCode) };
        requests.inc(labels);
        duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      });
      next();
    },
    cacheObserver: {
      served: (endpoint, outcome) => cacheServed.inc({ endpoint, outcome }),
      upstreamError: (endpoint) => upstreamErrors.inc({ endpoint }),
    },
  };
}

/** Names the route template an answer is counted under, for handlers Express does not route by template. */
export function setRouteLabel(res: Response, template: string): void {
  res.locals.routeTemplate = template;
}

/**
 * A label the code chose, never the request's path: a hostile URL must not mint a new series.
 * Express routes are labelled by their own template (`/locales/:lng/translation.json`).
 */
function routeLabel(req: Request, res: Response): string {
  if (res.statusCode === 404) return NOT_FOUND_ROUTE;
  const chosen: unknown = res.locals.routeTemplate;
  if (typeof chosen === 'string') return chosen;
  const route = req.route as { path?: unknown } | undefined;
  if (typeof route?.path === 'string') return req.baseUrl + route.path;
  return OTHER_ROUTE;
}
