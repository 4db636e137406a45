import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.ts';
import { createMetrics } from '../../server/ops/metrics.ts';
import { metricsListener } from '../../server/ops/metrics-server.ts';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';

const assetPath = () => readClientManifest(CLIENT_BUILD_DIR).script;

/** The samples of one metric, as "labels value" lines. */
function samples(text: string, metric: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${metric}{`));
}

describe('GET /metrics', () => {
  it('answers in Prometheus text format on the metrics port, never cached', async () => {
    const { deps } = await testApp();
    const res = await request(metricsListener(deps.metrics, deps.readiness)).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('# TYPE http_requests_total counter');
  });

  it("is a 404 on the visitors' port, like any unknown path", async () => {
    const { app } = await testApp();
    const res = await request(app).get('/metrics').set('Cookie', 'selectedLanguage=en').expect(404);
    expect(res.text).not.toContain('http_requests_total');
    expect(res.text).toContain('<html');
  });

  it('answers nothing but /metrics and the probes on the metrics port, and only GET and HEAD', async () => {
    const { deps } = await testApp();
    const listener = metricsListener(deps.metrics, deps.readiness);
    await request(listener).get('/').expect(404);
    await request(listener).get('/impressum').expect(404);
    await request(listener).head('/metrics').expect(200);
    expect((await request(listener).get('/healthz').expect(200)).text).toBe('ok');
    expect((await request(listener).get('/readyz').expect(200)).text).toBe('ready');
    deps.readiness.drain();
    await request(listener).get('/readyz').expect(503);
    await request(listener).get('/healthz').expect(200);
    const refused = await request(listener).post('/metrics').expect(405);
    expect(refused.headers.allow).toBe('GET, HEAD');
  });

  it('reports event-loop lag and process memory', async () => {
    const { deps } = await testApp();
    const { text } = await request(metricsListener(deps.metrics, deps.readiness)).get('/metrics');
    for (const metric of [
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toMatch(new RegExp(`^${metric} \\d`, 'm'));
    }
  });

  it('counts and times requests by route template and status', async () => {
    const { app, deps } = await testApp();
    await request(app).get('/').expect(200);
    await request(app).get('/?lng=en').expect(200);
    await request(app).get('/impressum').expect(200);
    await request(app).get('/locales/es/translation.json').expect(200);
    await request(app).get(assetPath()).expect(200);
    await request(app).get('/images/studios/munich-480.jpg').expect(200);
    await request(app).get('/healthz').expect(200);
    await request(app).post('/').expect(405);
    const { text } = await request(metricsListener(deps.metrics, deps.readiness)).get('/metrics');
    expect(samples(text, 'http_requests_total').sort()).toEqual(
      [
        'http_requests_total{route="/",status="200"} 2',
        'http_requests_total{route="/impressum",status="200"} 1',
        'http_requests_total{route="/locales/:lng/translation.json",status="200"} 1',
        'http_requests_total{route="/assets",status="200"} 1',
        'http_requests_total{route="static",status="200"} 1',
        'http_requests_total{route="/healthz",status="200"} 1',
        'http_requests_total{route="other",status="405"} 1',
      ].sort(),
    );
    expect(text).toMatch(/^http_request_duration_seconds_count\{route="\/",status="200"\} 2$/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="\+Inf",route="\/impressum",status="200"\} 1$/m);
  });

  it('never turns a requested path into a label, so hostile URLs cannot mint new series', async () => {
    const { app, deps } = await testApp();
    const hostile = [
      '/wp-admin',
      '/a/b/c',
      '/locales/xx/translation.json',
      '/assets/nope.js',
      '/%',
      '/%E0%A4%A',
      '/images/..%2f..%2fetc',
    ];
    for (const [i, path] of hostile.entries()) await request(app).get(`${path}?n=${i}`);
    const { text } = await request(metricsListener(deps.metrics, deps.readiness)).get('/metrics');
    expect(samples(text, 'http_requests_total').sort()).toEqual([
      'http_requests_total{route="not-found",status="404"} 5',
      'http_requests_total{route="other",status="400"} 2',
    ]);
    for (const path of hostile) expect(text).not.toContain(path);
  });

  it('counts cache outcomes and backend errors per endpoint through the cache observer', async () => {
    const { deps } = await testApp();
    const observer = deps.metrics.cacheObserver;
    observer.served('hero-slides', 'hit');
    observer.served('hero-slides', 'hit');
    observer.served('hero-slides', 'miss');
    observer.served('logo', 'stale');
    observer.served('logo', 'fallback');
    observer.upstreamError('logo');
    const { text } = await request(metricsListener(deps.metrics, deps.readiness)).get('/metrics');
    expect(samples(text, 'cache_served_total').sort()).toEqual([
      'cache_served_total{endpoint="hero-slides",outcome="hit"} 2',
      'cache_served_total{endpoint="hero-slides",outcome="miss"} 1',
      'cache_served_total{endpoint="logo",outcome="fallback"} 1',
      'cache_served_total{endpoint="logo",outcome="stale"} 1',
    ]);
    expect(samples(text, 'upstream_errors_total')).toEqual(['upstream_errors_total{endpoint="logo"} 1']);
  });
});

describe('log_lines_dropped_total', () => {
  it('is the number of log lines dropped so far, as a counter', async () => {
    let dropped = 0;
    const metrics = createMetrics({ droppedLogLines: () => dropped });
    const value = async () => /^log_lines_dropped_total (\d+)$/m.exec(await metrics.registry.metrics())?.[1];
    expect(await metrics.registry.metrics()).toContain('# TYPE log_lines_dropped_total counter');
    expect(await value()).toBe('0');
    dropped = 7;
    expect(await value()).toBe('7');
    dropped = 12;
    expect(await value()).toBe('12');
  });
});
