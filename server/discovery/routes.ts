import { Router } from 'express';
import { inLanguage, type Language } from '../../shared/languages.ts';
import { eventCalendar } from './ics.ts';
import type { Config } from '../config/environment.ts';
import type { SiteContent } from '../content/site-content.ts';
import type { Translations } from '../content/translations.ts';
import { resolveLanguage } from '../http/request-language.ts';
import { pageUrl } from './public-urls.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

export interface DiscoveryDeps {
  config: Config;
  content: SiteContent;
  translations: Translations;
}

/**
 * /robots.txt, /sitemap.xml and /event.ics. They depend only on the configuration, the
 * content and the translations, all fixed at start, so every answer is made once, here.
 */
export function discoveryRoutes({ config, content, translations }: DiscoveryDeps): Router {
  const origin = config.publicOrigin;
  const robots = robotsTxt(origin);
  const languages = translations.languages;
  const sitemap = sitemapXml(origin, languages);
  const calendars = new Map(languages.map((language) => [language, calendarIn(language)]));
  // The file name is the UID's local part, which the content schema limits to [\w.-].
  const calendarFileName = `${content.event.uid.split('@')[0]}.ics`;

  function calendarIn(language: Language): string {
    const { t } = translations.forRequest(language);
    const url = pageUrl(origin, '/', language);
    return eventCalendar({
      event: content.event,
      summary: t('hero.title'),
      description: `${t('meta.description', { cities: inLanguage(content.public.cityList, language) })}\n\n${t('hero.cta')}: ${url}#rsvp`,
      location: content.public.studios
        .map((studio) => inLanguage(studio.byLanguage, language))
        .map((studio) => `${studio.name}, ${studio.city}`)
        .join('; '),
      url,
    });
  }

  const router = Router();
  router.get('/robots.txt', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain; charset=utf-8').send(robots);
  });
  router.get('/sitemap.xml', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/xml; charset=utf-8').send(sitemap);
  });
  router.get('/event.ics', (req, res) => {
    // In the language of ?lng= or the cookie, like the page; only a page visit stores the choice.
    const { language } = resolveLanguage(req, languages);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.attachment(calendarFileName);
    res.type('text/calendar; charset=utf-8').send(calendars.get(language));
  });
  return router;
}
