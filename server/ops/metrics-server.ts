import type { RequestListener } from 'node:http';
import type { Metrics } from './metrics.ts';

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };

/**
 * The metrics port's one answer: GET /metrics in Prometheus text format. It listens apart from
 * the visitors' port (METRICS_PORT), so that what the visitors' Service, load balancer or CDN
 * exposes never includes it; anything else here is a short 404 or 405.
 */
export function metricsListener(metrics: Metrics): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, TEXT).end('Not found: this port serves /metrics only.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...TEXT, Allow: 'GET, HEAD' }).end('Method not allowed.\n');
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
