import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HeroSlide } from '../../shared/content.ts';
import { languageHref } from '../../shared/languages.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { useCarousel } from '../use-carousel.ts';
import { useHeroSlides } from '../use-hero-slides.ts';
import { useHydrated, usePageHidden, useReducedMotion } from '../use-media.ts';
import { Logo } from './Logo.tsx';

export function Hero() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { heroSlides: fromServer, logoUrl, content } = useAppData();
  const heroSlides = useHeroSlides(fromServer);
  const slides = heroSlides ?? [];
  const [pausedByVisitor, setPausedByVisitor] = useState(false);
  const hidden = usePageHidden();
  const reducedMotion = useReducedMotion();
  const { index, labelVisible } = useCarousel(slides.length, pausedByVisitor || hidden, reducedMotion);
  const display = content.eventDisplay[language];

  return (
    <header className="hero">
      <HeroSlides slides={slides} active={index} />
      <div className="hero__shade" aria-hidden="true" />
      <div className="hero__content">
        <Logo url={logoUrl} />
        <h1 className="hero__title">{t('hero.title')}</h1>
        <p className="hero__tagline">{t('hero.tagline')}</p>
        <p className="hero__cities">{t('hero.cities')}</p>
        <p className="hero__when">
          <span>{display.date}</span>
          <span aria-hidden="true"> · </span>
          <span>{display.time}</span>
        </p>
        <StudioLabel slides={heroSlides} index={index} visible={labelVisible} />
        <div className="hero__actions">
          <a className="button button--primary" href="#rsvp">
            {t('hero.cta')}
          </a>
          <a
            className="button button--quiet hero__calendar"
            href={`/event.ics${languageHref(language)}`}
            type="text/calendar"
          >
            {t('hero.addToCalendar')}
          </a>
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

/** The studio of the current slide; "Loading studios..." while slides are unknown, nothing when there are none. */
function StudioLabel({ slides, index, visible }: { slides: HeroSlide[] | null; index: number; visible: boolean }) {
  const { t } = useTranslation();
  if (slides === null) return <p className="hero__studio">{t('hero.loadingStudios')}</p>;
  const slide = slides[index];
  if (!slide) return null;
  return (
    <p className={`hero__studio${visible ? '' : ' is-fading'}`} data-testid="studio-label">
      {slide.studio}
    </p>
  );
}

/**
 * The cross-fading backgrounds. Only the first slide is in the server's HTML, so that
 * it is the one image loaded before the page is interactive; the others join once hydrated.
 */
function HeroSlides({ slides, active }: { slides: HeroSlide[]; active: number }) {
  const hydrated = useHydrated();
  if (slides.length === 0) return <div className="hero__slides hero__slides--empty" aria-hidden="true" />;
  const shown = hydrated ? slides : slides.slice(0, 1);
  return (
    <div className="hero__slides" aria-hidden="true">
      {shown.map((slide, i) => (
        <img
          key={`${i}:${slide.image}`}
          className={`hero__slide${i === active ? ' is-active' : ''}`}
          src={slide.image}
          srcSet={slide.srcset}
          sizes={slide.srcset ? '100vw' : undefined}
          alt=""
          decoding="async"
          fetchPriority={i === 0 ? 'high' : 'low'}
        />
      ))}
    </div>
  );
}
