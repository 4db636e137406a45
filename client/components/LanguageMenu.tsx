import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../language.tsx';
import { Flag } from './Flag.tsx';
import { LanguageChoices } from './LanguageChoices.tsx';

/** The dropdown at the top right, in a bar of its own: a <details> element, so it opens without scripts too. */
export function LanguageMenu() {
  const { t } = useTranslation();
  const { language, info } = useLanguage();
  const details = useRef<HTMLDetailsElement>(null);
  const close = () => details.current?.removeAttribute('open');

  return (
    <nav className="language-menu" aria-label={t('language.choose')}>
      <details ref={details}>
        {/* The visible code starts the accessible name, so speech users can say what they see. */}
        <summary>
          <Flag language={info} />
          <span className="language-menu__code">{language.toUpperCase()}</span>
          <span className="visually-hidden"> – {t('language.menuLabel', { language: info.name })}</span>
        </summary>
        <LanguageChoices listClassName="language-menu__list" linkClassName="language-menu__item" onChosen={close} />
      </details>
    </nav>
  );
}
