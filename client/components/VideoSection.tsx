import { useTranslation } from 'react-i18next';
import { eventDisplayWithLive } from '../../shared/live-state.ts';
import type { EventPhase } from '../../shared/event-clock.ts';
import { effectiveVideo } from '../../shared/live-state.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { playerAddress } from '../player-address.ts';
import { usePageEventClock } from '../use-event-clock.ts';
import { ClickToLoadFrame } from './ClickToLoadFrame.tsx';

/** The play button's text in each phase: when the stream starts, that it is live, or the video after. */
const PLAY_LABEL: Record<EventPhase, string> = {
  before: 'video.playBefore',
  live: 'video.playLive',
  after: 'video.playAfter',
  cancelled: 'video.playAfter',
  postponed: 'video.playAfter',
};

export function VideoSection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content, live } = useAppData();
  // A backup stream the event team names on the day takes the player's place, behind the same placeholder.
  const video = effectiveVideo(live, content.video);
  const { phase } = usePageEventClock();
  const { date, time } = eventDisplayWithLive(content, live, language);
  const provider = video.provider.name;
  return (
    <section id="rsvp" className="section section--video" aria-labelledby="video-heading">
      <h2 id="video-heading">{t('video.heading')}</h2>
      <p className="section__intro">{t('video.intro')}</p>
      <ClickToLoadFrame
        id="stream"
        boxClassName="video-frame"
        className="video-frame__player"
        provider={video.provider}
        frame={(clicked) => ({
          src: playerAddress(video.embedUrl, language, { autoplay: clicked }),
          title: t('video.frameTitle'),
          allow: 'autoplay; encrypted-media; picture-in-picture; fullscreen',
          referrerPolicy: 'strict-origin-when-cross-origin',
          loading: 'lazy',
        })}
        loadLabel={t(PLAY_LABEL[phase], { provider, date, time })}
        link={{ href: video.watchUrl, label: t('video.watchAt', { provider }) }}
        backdrop={
          video.poster && (
            <img
              className="embed-placeholder__picture"
              src={video.poster.src}
              srcSet={video.poster.srcset}
              sizes="(min-width: 72rem) 68rem, 100vw"
              alt=""
              loading="lazy"
              decoding="async"
            />
          )
        }
      />
    </section>
  );
}
