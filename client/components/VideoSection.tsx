import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BROADCAST_MOMENTS, broadcastTextKey, type BroadcastText } from '../../shared/broadcast-texts.ts';
import { effectiveRecording, effectiveVideo, eventDisplayWithLive } from '../../shared/live-state.ts';
import type { PublicVideo } from '../../shared/page-data.ts';
import { chapterFragment, recordingChapters } from '../../shared/recording.ts';
import { allowProvider } from '../embed-consent.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { playerAddress } from '../player-address.ts';
import { useBroadcastMoment, usePageEvent } from '../use-event-clock.ts';
import { Chapters } from './Chapters.tsx';
import { ClickToLoadFrame } from './ClickToLoadFrame.tsx';

/**
 * The stream, and after the end its recording: the sentence and the player follow the moment of
 * the day (shared/broadcast-texts.ts).
 * For an event cancelled, postponed or over with no recording named, the sentence says so and the
 * player's box holds the reason in the button's place: the box stays, so that nothing below it moves when the day changes, and so
 * does the sentence's height, that of the longest it may say.
 */
export function VideoSection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content, live } = useAppData();
  const moment = useBroadcastMoment();
  // The player whose frame is in the page, by its address, loaded or still loading: neither the end
  // (the stream lags the studio by up to half a minute) nor a recording named later interrupts it.
  const [framed, setFramed] = useState<string | null>(null);
  // A backup stream the event team names on the day takes the player's place, behind the same
  // placeholder, and so does the recording once the broadcast has ended.
  const stream = effectiveVideo(live, content.video);
  const ended = moment === 'after' || moment === 'awaiting' || moment === 'recording';
  const streamKept = ended && framed === stream.embedUrl;
  const recording = moment === 'recording' ? effectiveRecording(live, content) : null;
  const video: PublicVideo = recording && !streamKept ? recording : stream;
  // The section speaks of what it shows: the ended stream while that player stays.
  const shown = moment === 'recording' && streamKept ? 'after' : moment;
  const keepPlayer = useCallback(() => setFramed(video.embedUrl), [video.embedUrl]);
  const { date, time } = eventDisplayWithLive(content, live, language);
  const provider = video.provider.name;
  const said = (key: string | null) => key && t(key, { provider, date, time });
  const text = (name: BroadcastText) => said(broadcastTextKey(name, shown));
  const intro = text('streamIntro');
  const introSpares = new Set(BROADCAST_MOMENTS.map((each) => said(broadcastTextKey('streamIntro', each))));
  introSpares.delete(intro);
  const playLabel = text('playButton');
  const event = usePageEvent();
  const chapters = recording && video === recording ? recordingChapters(event, recording) : [];
  // The chapter chosen by a click, which plays it, else the one the page's address named when
  // the chapters came (at hydration, or once the recording is named in an open tab): read once,
  // so that the address moving on (#rsvp) takes no chapter from a player.
  const [picked, setPicked] = useState<string | null>(null);
  const [named, setNamed] = useState<string | null>(null);
  const [played, setPlayed] = useState(false);
  const chapterIds = chapters.map(({ id }) => id).join(' ');
  useEffect(() => {
    const fragment = location.hash.slice(1);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the address is the browser's, read once hydrated
    setNamed(chapterIds.split(' ').find((id) => id !== '' && chapterFragment(id) === fragment) ?? null);
  }, [chapterIds]);
  const chosen = picked ?? named;
  const start = chapters.find(({ id }) => id === chosen)?.start ?? 0;
  return (
    <section id="rsvp" className="section section--video" aria-labelledby="video-heading">
      <h2 id="video-heading">{t('video.heading')}</h2>
      <p className="section__intro steady steady--lines">
        <span className="steady__shown" data-testid="stream-intro">
          {intro}
        </span>
        {[...introSpares].map((spare) => (
          <span key={spare} className="steady__spare" aria-hidden="true">
            {spare}
          </span>
        ))}
      </p>
      <ClickToLoadFrame
        id="stream"
        boxClassName="video-frame"
        className="video-frame__player"
        provider={video.provider}
        frame={(clicked) => ({
          src: playerAddress(video.embedUrl, language, { autoplay: clicked || played, start }),
          title: text('playerTitle') ?? '',
          allow: 'autoplay; encrypted-media; picture-in-picture; fullscreen',
          referrerPolicy: 'strict-origin-when-cross-origin',
          loading: 'lazy',
        })}
        onFrame={keepPlayer}
        loadLabel={playLabel ?? ''}
        link={{ href: video.watchUrl, label: text('providerLink') ?? '' }}
        closed={streamKept ? null : text('playerClosed')}
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
      {chapters.length > 0 && (
        <Chapters
          chapters={chapters}
          chosen={chosen}
          watchUrl={video.watchUrl}
          onChoose={(id) => {
            setPicked(id);
            setPlayed(true);
            // Choosing a chapter asks for the player, as its button does.
            allowProvider(video.provider.name, { remember: false });
            history.replaceState(history.state, '', `#${chapterFragment(id)}`);
          }}
        />
      )}
    </section>
  );
}
