import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BROADCAST_TEXTS } from '../../shared/broadcast-texts.ts';
import { inLanguage } from '../../shared/languages.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { useBroadcastMoment } from '../use-event-clock.ts';

/** The head's descriptions the server wrote, as an open tab speaks of the broadcast now. */
const DESCRIPTIONS = [
  'meta[name="description"]',
  'meta[property="og:description"]',
  'meta[name="twitter:description"]',
];

/**
 * Keeps the page's description in step with the moment of the day and the language in an open tab
 * (a share sheet reads it there). It renders nothing: on its own, its re-render on each tick of the
 * clock is no one else's.
 */
export function PageDescription() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { cityList } = useAppData().content;
  const description = t(BROADCAST_TEXTS.description[useBroadcastMoment()], { cities: inLanguage(cityList, language) });
  useEffect(() => {
    for (const selector of DESCRIPTIONS) document.querySelector(selector)?.setAttribute('content', description);
  }, [description]);
  return null;
}
