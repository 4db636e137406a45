import type { Metric, Registry } from 'prom-client';

/** The duration histogram's upper bounds, in seconds: prom-client's defaults. */
export const DURATION_BOUNDS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The two metrics' names and help texts, as the scrape shows them. */
export const ANSWER_METRICS = {
  requests: { name: 'http_requests_total', help: 'HTTP requests answered, by route template and status' },
  duration: {
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by route template and status',
  },
} as const;
const REQUESTS = ANSWER_METRICS.requests.name;
const DURATION = ANSWER_METRICS.duration.name;

/** The answers of one route template with one status. */
interface Tally {
  labels: { route: string; status: string };
  count: number;
  sumSeconds: number;
  /** Answers per bucket, not cumulative: at i those above bound i-1 and within bound i; past the last bound, none. */
  inBucket: Float64Array;
}

export interface AnswerTallies {
  /** One answer of `route` with `status`, `seconds` after its request came. */
  add(route: string, status: number, seconds: number): void;
}

/** A metric's export as prom-client's registry reads it (its `get()`). */
interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
}

/**
 * Every answer counted (http_requests_total) and timed (http_request_duration_seconds) by route
 * template and status, exported in `registry` line for line as prom-client's Counter and
 * Histogram export them. Tallied here rather than by those classes, which validate the labels of
 * every observation, hash them into a new string and look that up: at 1,000 connections that
 * was about a twelfth of the server's time per page answer (docs/speed.md). A tally is found
 * by route and status; the export's work is done at the scrape, once per route and status.
 */
export function createAnswerTallies(registry: Registry): AnswerTallies {
  let byRoute = new Map<string, Map<number, Tally>>();

  const tallies = (): Tally[] => [...byRoute.values()].flatMap((byStatus) => [...byStatus.values()]);

  const register = (metric: { name: string; get(): Promise<Exported> }) =>
    registry.registerMetric({ ...metric, reset: () => (byRoute = new Map()) } as unknown as Metric);

  register({
    name: REQUESTS,
    get: async () => ({
      ...ANSWER_METRICS.requests,
      type: 'counter',
      aggregator: 'sum',
      values: tallies().map(({ labels, count }) => ({ labels, value: count })),
    }),
  });
  register({
    name: DURATION,
    get: async () => ({
      ...ANSWER_METRICS.duration,
      type: 'histogram',
      aggregator: 'sum',
      values: tallies().flatMap(({ labels, count, sumSeconds, inBucket }) => {
        let cumulative = 0;
        return [
          ...DURATION_BOUNDS.map((le, bucket) => {
            cumulative += inBucket[bucket]!;
            return { labels: { le, ...labels }, value: cumulative, metricName: `${DURATION}_bucket` };
          }),
          { labels: { le: '+Inf', ...labels }, value: count, metricName: `${DURATION}_bucket` },
          { labels, value: sumSeconds, metricName: `${DURATION}_sum` },
          { labels, value: count, metricName: `${DURATION}_count` },
        ];
      }),
    }),
  });

  return {
    add(route, status, seconds) {
      let byStatus = byRoute.get(route);
      if (!byStatus) byRoute.set(route, (byStatus = new Map()));
      let tally = byStatus.get(status);
      if (!tally) {
        tally = {
          labels: { route, status: String(status) },
          count: 0,
          sumSeconds: 0,
          inBucket: new Float64Array(DURATION_BOUNDS.length),
        };
        byStatus.set(status, tally);
      }
      tally.count += 1;
      tally.sumSeconds += seconds;
      // The first bucket whose bound it is within, as prom-client finds it.
      const bucket = DURATION_BOUNDS.findIndex((bound) => seconds <= bound);
      if (bucket !== -1) tally.inBucket[bucket]! += 1;
    },
  };
}
