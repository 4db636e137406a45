import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventClock } from '../../shared/event-clock.ts';
import { inLanguage } from '../../shared/languages.ts';
import { eventDisplayWithLive } from '../../shared/live-state.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { usePageEvent, usePageEventClock, useVisitorTimeZone } from '../use-event-clock.ts';
import { clockTimeIn } from '../visitor-time.ts';

/** What a segment's row says of it now. */
type Mark = 'now' | 'next' | 'notTakingPlace' | null;
const MARK_CLASS: Record<NonNullable<Mark>, string> = { now: 'now', next: 'next', notTakingPlace: 'not-taking-place' };

/**
 * The run of show: each segment's start on the event's clock (and, once hydrated, on the
 * visitor's where it differs), its studio and its title, with the segment on air and the next
 * one marked as the event clock moves. Each row keeps the room of its longest mark, so that a
 * mark that comes or goes moves nothing. None where the content file has no programme.
 */
export function Programme() {
  const { t, i18n } = useTranslation();
  const { language, info, chosen } = useLanguage();
  const { content } = useAppData();
  const event = usePageEvent();
  const clock = usePageEventClock();
  const timeOf = useSegmentTime();
  const visitorZone = useVisitorTimeZone(event, chosen);
  const visitorTimes = useMemo(
    () => visitorZone && event.programme.map(({ start }) => clockTimeIn(start, visitorZone, info.locale)),
    [visitorZone, event.programme, info.locale],
  );
  if (event.programme.length === 0) return null;

  const calledOff = clock.phase === 'cancelled' || clock.phase === 'postponed';
  return (
    <section className="section section--programme" aria-labelledby="programme-heading">
      <h2 id="programme-heading">{t('programme.heading')}</h2>
      <p className="section__intro">{calledOff ? t(`programme.${clock.phase}`) : t('programme.intro')}</p>
      <ol className="programme">
        {event.programme.map((segment, index) => {
          const mark = markOf(clock, index, segment.start < event.end);
          const studio = content.studios.find(({ id }) => id === segment.studioId);
          const descriptionKey = `programme.segments.${segment.id}.description`;
          const description = i18n.exists(descriptionKey) ? t(descriptionKey) : null;
          return (
            <li
              key={segment.id}
              className={`programme__segment${mark ? ` programme__segment--${MARK_CLASS[mark]}` : ''}`}
              aria-current={mark === 'now' ? 'time' : undefined}
              data-testid="programme-segment"
            >
              <p className="programme__when">
                <time dateTime={new Date(segment.start).toISOString()}>{timeOf(index, segment.start)}</time>
                {visitorTimes && visitorTimes[index] !== timeOf(index, segment.start) && (
                  <span className="programme__visitor-time">
                    {t('programme.yourTime', { time: visitorTimes[index] })}
                  </span>
                )}
              </p>
              <div className="programme__body">
                <MarkLine
                  shown={mark}
                  texts={{
                    now: t('programme.now'),
                    next: t('programme.next', { time: timeOf(index, segment.start) }),
                    notTakingPlace: t('programme.notTakingPlace'),
                  }}
                />
                <h3 className="programme__title">{t(`programme.segments.${segment.id}.title`)}</h3>
                {studio && <p className="programme__studio">{inLanguage(studio.byLanguage, language).name}</p>}
                {description && <p className="programme__description">{description}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** When a segment begins on the event's clock, as the programme and the recording's chapters show it. */
export function useSegmentTime(): (index: number, start: number) => string {
  const { language, info } = useLanguage();
  const { content, live } = useAppData();
  const { timeZone } = usePageEvent();
  const display = eventDisplayWithLive(content, live, language);
  // Formatted here only where the live state came from a replica of the release before the programme.
  return (index, start) => display.programme?.[index] ?? clockTimeIn(start, timeZone, info.locale);
}

/**
 * A row's mark, as tall as the tallest it may say (the others lie under it, unseen and hidden from
 * assistive technology): a mark that comes, goes or wraps on a narrow phone moves no row below.
 */
function MarkLine({ shown, texts }: { shown: Mark; texts: Record<NonNullable<Mark>, string> }) {
  return (
    <p className="programme__mark steady steady--lines">
      <span className="steady__shown">{shown && texts[shown]}</span>
      {(Object.keys(texts) as NonNullable<Mark>[])
        .filter((mark) => mark !== shown)
        .map((mark) => (
          <span key={mark} className="steady__spare" aria-hidden="true">
            {texts[mark]}
          </span>
        ))}
    </p>
  );
}

/**
 * A segment's mark at the clock's moment: on air, or next (the first before the start, the one
 * after the segment on air during it); none after the end or while the event is called off, where
 * a segment the end cut off is told as not taking place.
 */
function markOf(clock: EventClock, index: number, takesPlace: boolean): Mark {
  if (clock.phase === 'cancelled' || clock.phase === 'postponed') return null;
  if (!takesPlace) return 'notTakingPlace';
  if (clock.phase === 'live' && clock.segment === index) return 'now';
  const next = clock.phase === 'before' ? 0 : clock.phase === 'live' ? (clock.segment ?? -1) + 1 : null;
  return index === next ? 'next' : null;
}
