import { Router } from 'express';
import type { PageDeps } from './pages.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

export type ReachDeps = Pick<PageDeps, 'config'>;

/** /robots.txt and /sitemap.xml. They depend only on the configuration, so each is made once, here. */
export function reachRoutes({ config }: ReachDeps): Router {
  const origin = config.publicOrigin;
  const robots = robotsTxt(origin);
  const sitemap = sitemapXml(origin);
  const router = Router();
  router.get('/robots.txt', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain; charset=utf-8').send(robots);
  });
  router.get('/sitemap.xml', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/xml; charset=utf-8').send(sitemap);
  });
  return router;
}
