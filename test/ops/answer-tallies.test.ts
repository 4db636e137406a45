import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ANSWER_METRICS, createAnswerTallies, DURATION_BOUNDS } from '../../server/ops/answer-tallies.ts';

/** The same answers, counted by prom-client's own Counter and Histogram. */
function promClientRegistry() {
  const registry = new Registry();
  const requests = new Counter({
    ...ANSWER_METRICS.requests,
    labelNames: ['route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    ...ANSWER_METRICS.duration,
    labelNames: ['route', 'status'],
    buckets: [...DURATION_BOUNDS],
    registers: [registry],
  });
  return {
    registry,
    add(route: string, status: number, seconds: number) {
      requests.inc({ route, status: String(status) });
      duration.observe({ route, status: String(status) }, seconds);
    },
  };
}

function withoutExemplars(metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) {
  return metrics.map((metric) => ({
    ...metric,
    values: metric.values.map(({ labels, value, ...rest }) => ({
      labels,
      value,
      metricName: (rest as { metricName?: string }).metricName,
    })),
  }));
}

// Within, on and beyond the bounds; several routes and statuses, one route with a quote to escape.
const ANSWERS: [string, number, number][] = [
  ['/', 200, 0.0004],
  ['/', 200, 0.005],
  ['/', 200, 0.0051],
  ['/', 304, 0.002],
  ['/impressum', 200, 0.3],
  ['/', 200, 10],
  ['/', 200, 12.5],
  ['not-found', 404, 0.02],
  ['say "hi"', 500, 1],
  ['/', 200, 0.75],
];

describe('the answer tallies', () => {
  it("export what prom-client's Counter and Histogram export for the same answers, line for line", async () => {
    const reference = promClientRegistry();
    const registry = new Registry();
    const tallies = createAnswerTallies(registry);
    for (const [route, status, seconds] of ANSWERS) {
      reference.add(route, status, seconds);
      tallies.add(route, status, seconds);
    }
    expect(await registry.metrics()).toBe(await reference.registry.metrics());
    // As JSON too, but for prom-client's empty exemplars, which nothing here records.
    expect(withoutExemplars(await registry.getMetricsAsJSON())).toEqual(
      withoutExemplars(await reference.registry.getMetricsAsJSON()),
    );
    expect(await registry.metrics()).toContain(
      'http_request_duration_seconds_bucket{le="0.005",route="/",status="200"} 2\n',
    );
  });

  it('export nothing but the heads before the first answer, and start again from nothing when the registry is reset', async () => {
    const registry = new Registry();
    const tallies = createAnswerTallies(registry);
    expect(await registry.metrics()).toBe(await promClientRegistry().registry.metrics());
    tallies.add('/', 200, 0.001);
    registry.resetMetrics();
    tallies.add('/impressum', 200, 0.001);
    expect(await registry.getSingleMetricAsString('http_requests_total')).toMatch(
      /^http_requests_total\{route="\/impressum",status="200"\} 1$/m,
    );
    expect(await registry.getSingleMetricAsString('http_requests_total')).not.toContain('route="/"');
  });
});
