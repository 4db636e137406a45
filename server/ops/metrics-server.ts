import type { RequestListener } from 'node:http';
import { healthAnswer, type Readiness } from './health.ts';
import type { Metrics } from './metrics.ts';

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };

/**
 * The metrics port's answers: GET /metrics in Prometheus text format, and the probes, /healthz
 * and /readyz, as on the visitors' port. It listens apart from the visitors' port (METRICS_PORT),
 * so that what the visitors' Service, load balancer or CDN exposes never includes the metrics,
 * and so that the kubelet's probes do not wait behind the visitors' connections: while a crowd
 * saturates the visitors' port, a new connection there waits until the load eases, but this
 * port answers at once. Anything else here is a short 404 or 405.
 */
export function metricsListener(metrics: Metrics, readiness: Readiness): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const probe = healthAnswer(path, readiness);
    if (path !== '/metrics' && !probe) {
      res.writeHead(404, TEXT).end('Not found: this port serves /metrics, /healthz and /readyz.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...TEXT, Allow: 'GET, HEAD' }).end('Method not allowed.\n');
      return;
    }
    if (probe) {
      res.writeHead(probe.status, TEXT).end(req.method === 'HEAD' ? undefined : probe.body);
      return;
    }
    metrics.registry.metrics().then(
      (body) => {
        res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => res.writeHead(500, TEXT).end('The metrics could not be collected.\n'),
    );
  };
}
