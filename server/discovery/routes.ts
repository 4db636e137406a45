import { Router } from 'express';
import { inLanguage, type Language } from '../../shared/languages.ts';
import { BROADCAST_TEXTS, type BroadcastMoment } from '../../shared/broadcast-texts.ts';
import { eventClockWithStatus } from '../../shared/event-clock.ts';
import { eventWithLive, momentWithLive, type LiveState } from '../../shared/live-state.ts';
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
  /** The event clock (ms since the epoch), which a rehearsal shifts: the calendar's texts follow its phase. */
  now: () => number;
}

/**
 * /robots.txt, /sitemap.xml and /event.ics. They depend on the configuration, the content and the
 * translations, all fixed at start, and the calendar also on the live state and the moment of the
 * day its texts speak of: every answer is made once, here, and the calendars again once per live
 * state and moment.
 */
export function discoveryRoutes({ config, content, translations, liveSource, now }: DiscoveryDeps): Router {
  const origin = config.publicOrigin;
  const robots = robotsTxt(origin);
  const languages = translations.languages;
  const sitemap = sitemapXml(origin, languages);
  // Made again for each live state and moment: the calendar carries both (its STATUS and stamp, its texts).
  let calendars = { tag: '', byLanguage: new Map<Language, string>() };
  // The file name is the UID's local part, which the content schema limits to [\w.-].
  const calendarFileName = `${content.event.uid.split('@')[0]}.ics`;

  function calendarsFor(live: LiveState): Map<Language, string> {
    const planned = content.public.event;
    const phase = eventClockWithStatus(now(), eventWithLive(planned, live)).phase;
    const moment = momentWithLive(phase, live, content.public);
    const tag = `${liveEntityTag(live)}|${moment}`;
    if (calendars.tag !== tag) {
      calendars = {
        tag,
        byLanguage: new Map(languages.map((language) => [language, calendarIn(language, live, moment)])),
      };
    }
    return calendars.byLanguage;
  }

  function calendarIn(language: Language, live: LiveState, moment: BroadcastMoment): string {
    const { t } = translations.forRequest(language);
    const url = pageUrl(origin, '/', language);
    const description = t(BROADCAST_TEXTS.description[moment], {
      cities: inLanguage(content.public.cityList, language),
    });
    const link = BROADCAST_TEXTS.calendarLink[moment];
    return eventCalendar({
      // A calendar app tells a revised entry by a higher SEQUENCE and a later stamp: a live change is one.
      event: eventFactsWithLive(content.event, live),
      summary: t(BROADCAST_TEXTS.calendarSummary[moment]),
      // Where there is a stream to watch, the link to it; else the page, which says why.
      description: `${description}\n\n${link ? `${t(link)}: ${url}#rsvp` : url}`,
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
