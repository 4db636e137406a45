import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { preload } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { slideStudioName, studioCities, type PageSlide } from '../../shared/page-data.ts';
import { BROADCAST_MOMENTS, broadcastTextKey } from '../../shared/broadcast-texts.ts';
import { countdownText, type EventClock } from '../../shared/event-clock.ts';
import { languageHref } from '../../shared/languages.ts';
import { eventDisplayWithLive } from '../../shared/live-state.ts';
import { useAppData } from '../app-data.tsx';
import { Data } from '../data-text.tsx';
import { useLanguage } from '../language.tsx';
import { useCarousel } from '../use-carousel.ts';
import { useBroadcastMoment, usePageEvent, usePageEventClock, useVisitorTimeZone } from '../use-event-clock.ts';
import { useHeroSlides } from '../use-hero-slides.ts';
import { useHydrated, usePageHidden, useReducedData, useReducedMotion } from '../use-media.ts';
import { visitorTimeRange } from '../visitor-time.ts';
import { Logo } from './Logo.tsx';

export function Hero() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { heroSlides: fromServer, logoUrl, logoSize, content } = useAppData();
  const heroSlides = useHeroSlides(fromServer);
  const slides = heroSlides ?? [];
  const [pausedByVisitor, setPausedByVisitor] = useState(false);
  const hidden = usePageHidden();
  const reducedMotion = useReducedMotion();
  const { index, labelVisible } = useCarousel(slides.length, pausedByVisitor || hidden, reducedMotion);
  const display = eventDisplayWithLive(content, useAppData().live, language);
  const clock = usePageEventClock();
  const { phase } = clock;
  const moment = useBroadcastMoment();
  const recordingUrl = content.event.recordingUrl;

  // The button to the stream says what the stream is now; an event cancelled or postponed has none.
  const ctaKey = broadcastTextKey('heroButton', moment);
  const ctaKeys = new Set(BROADCAST_MOMENTS.flatMap((each) => broadcastTextKey('heroButton', each) ?? []));
  const ctaSpares = [...ctaKeys].map((key) => t(key));
  const calendarLabel = t('hero.addToCalendar');
  const recordingLabel = t('hero.recording');

  return (
    <header className="hero" data-event-phase={phase}>
      <HeroSlides slides={slides} active={index} />
      <div className="hero__shade" aria-hidden="true" />
      <div className="hero__content">
        <Logo url={logoUrl} size={logoSize} />
        <h1 className="hero__title">{t('hero.title')}</h1>
        <p className="hero__tagline">{t('hero.tagline')}</p>
        <p className="hero__cities">
          {/* Each city set apart, so that on a right-to-left page the first is on the right. */}
          {studioCities(content.studios, language).map((city, i) => (
            <Fragment key={city}>
              {i > 0 && ' · '}
              <Data>{city}</Data>
            </Fragment>
          ))}
        </p>
        <p className="hero__when">
          <span>{display.date}</span>
          <span aria-hidden="true"> · </span>
          <span>{display.time}</span>
        </p>
        <EventPhaseLine clock={clock} />
        <StudioLabel slides={heroSlides} index={index} visible={labelVisible} />
        <div className="hero__actions">
          <SteadyWidth
            spares={ctaSpares.map((label) => (
              <span key={label} className="button button--primary">
                {label}
              </span>
            ))}
          >
            {ctaKey && (
              <a className="button button--primary hero__stream" href="#rsvp">
                {t(ctaKey)}
              </a>
            )}
          </SteadyWidth>
          {/*
            The calendar while the event is ahead or on, the content file's link to the recording
            after (a recording named on the day plays in the stream's section, which the first
            button leads to), nothing for an event cancelled or postponed: one place of constant width.
          */}
          <SteadyWidth
            spares={[calendarLabel, ...(recordingUrl ? [recordingLabel] : [])].map((label) => (
              <span key={label} className="button button--quiet">
                {label}
              </span>
            ))}
          >
            {phase === 'before' || phase === 'live' ? (
              <a
                className="button button--quiet hero__calendar"
                href={`/event.ics${languageHref(language)}`}
                type="text/calendar"
              >
                {calendarLabel}
              </a>
            ) : (moment === 'after' || moment === 'awaiting') && recordingUrl ? (
              <a className="button button--quiet hero__recording" href={recordingUrl}>
                {recordingLabel}
              </a>
            ) : null}
          </SteadyWidth>
          {slides.length > 1 && (
            <button
              type="button"
              className="button button--quiet hero__pause"
              aria-pressed={pausedByVisitor}
              onClick={() => setPausedByVisitor((paused) => !paused)}
            >
              {pausedByVisitor ? t('hero.play') : t('hero.pause')}
            </button>
          )}
        </div>
      </div>
    </header>
  );
}

/**
 * Under the date: the countdown before the start, "Live now" during the broadcast, the closing
 * word after it, and the times on the visitor's own clock where that differs; for an event
 * cancelled or postponed, that it is, and nothing of its times. The status element is a polite
 * live region whose text changes once per phase, never per tick; the block keeps its height
 * whatever it shows, the visitor's times included, which arrive after hydration.
 */
function EventPhaseLine({ clock }: { clock: EventClock }) {
  const { t } = useTranslation();
  const { info, chosen } = useLanguage();
  const event = usePageEvent();
  const visitorZone = useVisitorTimeZone(event, chosen);
  const timesAhead = clock.phase === 'before' || clock.phase === 'live';
  // Formatted once per zone, language and times, not on every tick of the countdown.
  const visitorTimes = useMemo(
    () => (visitorZone && timesAhead ? visitorTimeRange(event, event.timeZone, visitorZone, info.locale) : null),
    [visitorZone, timesAhead, event, info.locale],
  );

  return (
    <div className="hero__phase">
      {clock.countdown && (
        <p className="hero__countdown" data-testid="countdown">
          {countdownText((key, options) => t(key, options), clock.countdown)}
        </p>
      )}
      <p className="hero__status" role="status">
        {clock.phase === 'live' && <span className="hero__live">{t('hero.live')}</span>}
        {clock.phase === 'after' && t('hero.ended')}
        {clock.phase === 'cancelled' && t('hero.cancelled')}
        {clock.phase === 'postponed' && t('hero.postponed')}
      </p>
      {visitorTimes && (
        <p className="hero__visitor-time" data-testid="visitor-time">
          {t('hero.yourTime', { time: visitorTimes })}
        </p>
      )}
    </div>
  );
}

/**
 * Takes the width of the widest of what it may show, so that a change of text or of link
 * moves nothing beside it. The spares are laid under the shown one, invisible and hidden
 * from assistive technology.
 */
function SteadyWidth({ spares, children }: { spares: ReactNode[]; children: ReactNode }) {
  return (
    <span className="steady">
      <span className="steady__shown">{children}</span>
      {spares.map((spare, i) => (
        <span key={i} className="steady__spare" aria-hidden="true">
          {spare}
        </span>
      ))}
    </span>
  );
}

/**
 * The studio of the current slide, in the page's language; "Loading studios..." while slides are
 * unknown, nothing when there are none.
 */
function StudioLabel({ slides, index, visible }: { slides: PageSlide[] | null; index: number; visible: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content } = useAppData();
  if (slides === null) return <p className="hero__studio">{t('hero.loadingStudios')}</p>;
  const slide = slides[index];
  const name = slide ? slideStudioName(slide, content.studios, language) : null;
  if (name === null) return null;
  return (
    <p className={`hero__studio${visible ? '' : ' is-fading'}`} data-testid="studio-label">
      {name}
    </p>
  );
}

/**
 * The cross-fading backgrounds. Only the first slide is in the server's HTML, so that
 * it is the one image loaded before the page is interactive. The first is preloaded from the
 * head, at low priority: it is a background under a gradient, and the text and the page's
 * script come before it. Once hydrated, the next slide joins when the one shown has its picture,
 * so a picture loads one rotation before it shows and never beside another; a visitor who asked
 * to spare data gets the first only. A slide without a picture shows the hero's gradient.
 * Pictures the server made come as a `<picture>`: a crop for portrait screens, WebP before JPEG.
 */
function HeroSlides({ slides, active }: { slides: PageSlide[]; active: number }) {
  const hydrated = useHydrated();
  const reducedData = useReducedData();
  const fetched = useFetchedSlides(slides, active, hydrated && !reducedData);
  const first = slides[0];
  if (!first) return <div className="hero__slides hero__slides--empty" aria-hidden="true" />;
  preloadSlide(first);
  return (
    <div className="hero__slides" aria-hidden="true">
      {slides.slice(0, fetched.count).map((slide, i) => {
        if (!slide.image) return null;
        const img = (
          <img
            key={`${i}:${slide.image}`}
            ref={(element) => {
              // Loaded before hydration: its load event fired before React was listening.
              if (element?.complete) fetched.settled(i);
            }}
            className={`hero__slide${i === active ? ' is-active' : ''}`}
            src={slide.image}
            srcSet={slide.srcset}
            sizes={slide.srcset ? (slide.sizes ?? '100vw') : undefined}
            alt=""
            decoding="async"
            fetchPriority="low"
            onLoad={() => fetched.settled(i)}
            onError={() => fetched.settled(i)}
          />
        );
        if (!slide.sources?.length) return img;
        return (
          <picture key={`${i}:${slide.image}`}>
            {slide.sources.map((source) => (
              <source
                key={source.srcset}
                srcSet={source.srcset}
                sizes={source.sizes}
                type={source.type}
                media={source.media}
              />
            ))}
            {img}
          </picture>
        );
      })}
    </div>
  );
}

/**
 * How many slides, from the first, the page has asked the pictures of: always the one shown,
 * and, while `more` holds, one more once the shown one is the last of them and its picture has
 * loaded or failed (a slide without a picture at once). Without `more`, the first only.
 */
function useFetchedSlides(slides: PageSlide[], active: number, more: boolean) {
  const [count, setCount] = useState(1);
  const [settledUpTo, setSettledUpTo] = useState(-1);
  const activeSettled = settledUpTo >= active || !slides[active]?.image;
  const wanted = !more
    ? 1
    : Math.min(slides.length, active === count - 1 && activeSettled ? count + 1 : Math.max(count, active + 1));
  // Adjusted while rendering, as React advises for state that follows other state.
  if (wanted > count) setCount(wanted);
  return {
    count,
    settled: (index: number) => setSettledUpTo((upTo) => Math.max(upTo, index)),
  };
}

/**
 * Preloads what the first slide's `<picture>` will choose: for each kind of screen its first
 * source there (media), or the image itself.
 */
function preloadSlide(slide: PageSlide) {
  if (!slide.image) return;
  const sources = slide.sources ?? [];
  const portrait = sources.find((source) => source.media);
  const others = sources.find((source) => !source.media);
  if (others) {
    if (portrait?.media)
      preload(firstAddress(portrait.srcset), {
        as: 'image',
        fetchPriority: 'low',
        imageSrcSet: portrait.srcset,
        imageSizes: portrait.sizes,
        type: portrait.type,
        media: portrait.media,
      });
    preload(firstAddress(others.srcset), {
      as: 'image',
      fetchPriority: 'low',
      imageSrcSet: others.srcset,
      imageSizes: others.sizes,
      type: others.type,
      ...(portrait?.media ? { media: `not all and ${portrait.media}` } : {}),
    });
    return;
  }
  preload(slide.image, {
    as: 'image',
    fetchPriority: 'low',
    ...(slide.srcset ? { imageSrcSet: slide.srcset, imageSizes: slide.sizes ?? '100vw' } : {}),
  });
}

function firstAddress(srcset: string): string {
  return srcset.split(',')[0]!.trim().split(/\s+/)[0]!;
}
