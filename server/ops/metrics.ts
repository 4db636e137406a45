import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { CacheObserver } from '../backend/cache-events.ts';
import type { LiveObserver } from '../live/live-source.ts';

export interface Metrics {
  registry: Registry;
  /** Counts and times an answer that has closed, from `startedMs` (performance.now()), by route template and status. */
  count(route: string, status: number, startedMs: number): void;
  /** Counts cache outcomes and backend failures of the cached /api endpoints. */
  cacheObserver: CacheObserver;
  /** Counts the live changes a source refused. */
  liveObserver: LiveObserver;
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

  const liveRefusals = new Counter({
    name: 'live_changes_refused_total',
    help: 'Changes of the live state refused by its check (the last good state stayed), by source',
    labelNames: ['source'],
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
    count(route, status, startedMs) {
      const labels = { route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - startedMs) / 1000);
    },
    cacheObserver: {
      served: (endpoint, outcome) => cacheServed.inc({ endpoint, outcome }),
      upstreamError: (endpoint) => upstreamErrors.inc({ endpoint }),
    },
    liveObserver: {
      refused: (source) => liveRefusals.inc({ source }),
    },
  };
}
