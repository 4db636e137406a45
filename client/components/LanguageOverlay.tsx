import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../language.tsx';
import { LanguageChoices } from './LanguageChoices.tsx';

/**
 * The specification's words. The overlay asks before any language is chosen, so it speaks
 * English whatever the default language, with the current language's words beneath.
 */
export const OVERLAY_TITLE = 'Select Language';
export const OVERLAY_SUBTITLE = 'Please choose your preferred language';

/** The full-screen first-visit choice; the rest of the page is inert while it shows. */
export function LanguageOverlay() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialog.current?.querySelector<HTMLAnchorElement>('a')?.focus();
  }, []);

  return (
    <div
      className="overlay"
      role="dialog"
      aria-modal="true"
      aria-labelledby="overlay-title"
      aria-describedby="overlay-subtitle"
      ref={dialog}
    >
      <div className="overlay__panel">
        <h2 id="overlay-title" className="overlay__title" lang="en">
          {OVERLAY_TITLE}
        </h2>
        <p id="overlay-subtitle" className="overlay__subtitle" lang="en">
          {OVERLAY_SUBTITLE}
        </p>
        {language !== 'en' && (
          <p className="overlay__translation" lang={language}>
            {t('overlay.title')} · {t('overlay.subtitle')}
          </p>
        )}
        <LanguageChoices listClassName="overlay__choices" linkClassName="overlay__choice" />
      </div>
    </div>
  );
}
