import { Router } from 'express';
import { inLanguage, type Language } from '../../shared/languages.ts';
import type { LiveState } from '../../shared/live-state.ts';
import { eventCalendar } from './ics.ts';
import type { Config } from '../config/environment.ts';
import type { SiteContent } from '../content/site-content.ts';
import type { Translations } from '../content/translations.ts';
import { resolveLanguage } from '../http/request-language.ts';
import type { LiveSource } from '../live/live-source.ts';
import { liveEntityTag } from '../live/live-version.ts';
import { eventFactsWithLive } from '../live/event-facts.ts';
import { pageUrl } from './public-urls.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

export interface DiscoveryDeps {
  config: Config;
  content: SiteContent;
  translations: Translations;
  liveSource: LiveSource;
}

/**
 * /robots.txt, /sitemap.xml and /event.ics. They depend on the configuration, the content and the
 * translations, all fixed at start, and the calendar also on the live state's status: every answer
 * is made once, here, and the calendars again once per live state.
 */
export function discoveryRoutes({ config, content, translations, liveSource }: DiscoveryDeps): Router {
  const origin = config.publicOrigin;
  const robots = robotsTxt(origin);
  const languages = translations.languages;
  const sitemap = sitemapXml(origin, languages);
  // Made again for each live state and time: the calendar carries both (its STATUS and its stamp).
  let calendars = { tag: '', byLanguage: new Map<Language, string>() };
  // The file name is the UID's local part, which the content schema limits to [\w.-].
  const calendarFileName = `${content.event.uid.split('@')[0]}.ics`;

  function calendarsFor(live: LiveState): Map<Language, string> {
    if (calendars.tag !== liveEntityTag(live)) {
      calendars = {
        tag: liveEntityTag(live),
        byLanguage: new Map(languages.map((language) => [language, calendarIn(language, live)])),
      };
    }
    return calendars.byLanguage;
  }

  function calendarIn(language: Language, live: LiveState): string {
    const { t } = translations.forRequest(language);
    const url = pageUrl(origin, '/', language);
    return eventCalendar({
      // A calendar app tells a revised entry by a higher SEQUENCE and a later stamp: a live change is one.
      event: eventFactsWithLive(content.event, live),
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
  router.get('/event.ics', async (req, res) => {
    // In the language of ?lng= or the cookie, like the page; only a page visit stores the choice.
    const { language } = resolveLanguage(req, languages);
    const calendar = calendarsFor(await liveSource.get()).get(language);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.attachment(calendarFileName);
    res.type('text/calendar; charset=utf-8').send(calendar);
  });
  return router;
}
