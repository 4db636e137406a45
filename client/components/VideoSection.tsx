import { useTranslation } from 'react-i18next';
import { broadcastTextKey } from '../../shared/broadcast-texts.ts';
import { effectiveVideo, eventDisplayWithLive } from '../../shared/live-state.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { playerAddress } from '../player-address.ts';
import { useBroadcastMoment } from '../use-event-clock.ts';
import { ClickToLoadFrame } from './ClickToLoadFrame.tsx';

/**
 * The stream: its sentence and its player follow the moment of the day (shared/broadcast-texts.ts);
 * for an event cancelled or postponed the sentence says so, and there is no player.
 */
export function VideoSection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content, live } = useAppData();
  // A backup stream the event team names on the day takes the player's place, behind the same placeholder.
  const video = effectiveVideo(live, content.video);
  const moment = useBroadcastMoment();
  const { date, time } = eventDisplayWithLive(content, live, language);
  const provider = video.provider.name;
  const text = (name: Parameters<typeof broadcastTextKey>[0]) => {
    const key = broadcastTextKey(name, moment);
    return key && t(key, { provider, date, time });
  };
  const playLabel = text('playButton');
  return (
    <section id="rsvp" className="section section--video" aria-labelledby="video-heading">
      <h2 id="video-heading">{t('video.heading')}</h2>
      <p className="section__intro" data-testid="stream-intro">
        {text('streamIntro')}
      </p>
      {playLabel && (
        <ClickToLoadFrame
          id="stream"
          boxClassName="video-frame"
          className="video-frame__player"
          provider={video.provider}
          frame={(clicked) => ({
            src: playerAddress(video.embedUrl, language, { autoplay: clicked }),
            title: text('playerTitle') ?? '',
            allow: 'autoplay; encrypted-media; picture-in-picture; fullscreen',
            referrerPolicy: 'strict-origin-when-cross-origin',
            loading: 'lazy',
          })}
          loadLabel={playLabel}
          link={{ href: video.watchUrl, label: text('providerLink') ?? '' }}
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
      )}
    </section>
  );
}
