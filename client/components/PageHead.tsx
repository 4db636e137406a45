import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { serializeForScript } from '../../shared/bootstrap.ts';
import { BROADCAST_TEXTS } from '../../shared/broadcast-texts.ts';
import { inLanguage, LANGUAGE_QUERY_PARAM } from '../../shared/languages.ts';
import { effectiveRecording, effectiveVideo, noticeFor, startMoved } from '../../shared/live-state.ts';
import { eventStructuredData, type EventDescription } from '../../shared/structured-data.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { useBroadcastMoment, usePageEvent } from '../use-event-clock.ts';

/** The head's descriptions the server wrote, as an open tab speaks of the broadcast now. */
const DESCRIPTIONS = [
  'meta[name="description"]',
  'meta[property="og:description"]',
  'meta[name="twitter:description"]',
];

/**
 * Keeps what the head says of the event in step with the day and the language in an open tab: its
 * descriptions (a share sheet reads them there) and, on the landing page, the JSON-LD, rewritten
 * whole so that its description, status, dates and live stream never contradict one another. It
 * renders nothing: on its own, its re-render on each tick of the clock is no one else's.
 */
export function PageHead() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content, live } = useAppData();
  const event = usePageEvent();
  const moment = useBroadcastMoment();
  const description = t(BROADCAST_TEXTS.description[moment], {
    cities: inLanguage(content.cityList, language),
  });
  const name = t('hero.title');
  const notice = live.notice ? noticeFor(live.notice, language, content.languages[0]!.code).text : null;
  const plannedStart = startMoved(live, content.event) ? content.event : null;
  const recording = moment === 'recording' ? effectiveRecording(live, content) : null;
  const video = recording ?? effectiveVideo(live, content.video);

  useEffect(() => {
    for (const selector of DESCRIPTIONS) document.querySelector(selector)?.setAttribute('content', description);
  }, [description]);

  useEffect(() => {
    const script = document.querySelector('script[type="application/ld+json"]');
    const sent = script && addressesOf(script.textContent);
    if (!sent) return;
    // The page's address in the tab's language, as the server names it in each.
    const pageUrl = new URL(sent.pageUrl);
    pageUrl.searchParams.set(LANGUAGE_QUERY_PARAM, language);
    const data = eventStructuredData({
      pageUrl: pageUrl.href,
      imageUrl: sent.imageUrl,
      event,
      plannedStart,
      studios: content.studios,
      company: content.company,
      language,
      name,
      description,
      notice,
      segmentName: (id) => t(`programme.segments.${id}.title`),
      moment,
      stream: {
        embedUrl: video.embedUrl,
        pictureUrl: video.poster && new URL(video.poster.src, pageUrl).href,
        beginsAtSeconds: recording?.beginsAtSeconds,
      },
    });
    const text = serializeForScript(data);
    if (script.textContent !== text) script.textContent = text;
  }, [event, plannedStart, content, language, name, description, notice, t, moment, video, recording]);
  return null;
}

/** The addresses the server wrote into the JSON-LD: the page's own and its picture. Null where there are none. */
function addressesOf(json: string | null): Pick<EventDescription, 'pageUrl' | 'imageUrl'> | null {
  try {
    const { url, image } = JSON.parse(json ?? '') as { url?: unknown; image?: unknown };
    if (typeof url !== 'string') return null;
    return { pageUrl: url, imageUrl: Array.isArray(image) && typeof image[0] === 'string' ? image[0] : null };
  } catch {
    return null;
  }
}
