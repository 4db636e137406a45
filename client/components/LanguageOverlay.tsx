import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageChoices } from './LanguageChoices.tsx';

/** The full-screen first-visit choice; the rest of the page is inert while it shows. */
export function LanguageOverlay() {
  const { t } = useTranslation();
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
        <h2 id="overlay-title" className="overlay__title">
          {t('overlay.title')}
        </h2>
        <p id="overlay-subtitle" className="overlay__subtitle">
          {t('overlay.subtitle')}
        </p>
        <LanguageChoices listClassName="overlay__choices" linkClassName="overlay__choice" placement="overlay" />
      </div>
    </div>
  );
}
