import type { Language } from '../../shared/languages.ts';
import { PAGE_PATHS } from '../../shared/routes.ts';
import { languageAlternates, pageUrl } from './public-urls.ts';

/**
 * Every indexed page in every language, each `<url>` naming all its language versions
 * (and `x-default`) as `xhtml:link` alternates, as search engines ask of multilingual sitemaps.
 * Only the canonical `?lng=` addresses are listed: the bare path is no page's canonical.
 */
export function sitemapXml(publicOrigin: string, languages: readonly Language[]): string {
  const urls = Object.values(PAGE_PATHS).flatMap((path) => {
    const alternates = languageAlternates(publicOrigin, path, languages)
      .map(({ hreflang, href }) => `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeXml(href)}"/>`)
      .join('\n');
    return languages.map(
      (language) =>
        `  <url>\n    <loc>${escapeXml(pageUrl(publicOrigin, path, language))}</loc>\n${alternates}\n  </url>`,
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Everything may be crawled; the sitemap says where the pages are. */
export function robotsTxt(publicOrigin: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${new URL('/sitemap.xml', publicOrigin).href}\n`;
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
