import type { MouseEvent, ReactNode } from 'react';
import { languageHref, type Language } from '../../shared/languages.ts';
import { useLanguage } from '../language.tsx';

/**
 * A link to `?lng=<code>`: without scripts the server switches the language;
 * with them the switch happens in place.
 */
export function LanguageLink({
  language,
  className,
  onChosen,
  children,
}: {
  language: Language;
  className?: string;
  onChosen?: () => void;
  children: ReactNode;
}) {
  const { language: current, chosen, pending, choose, prefetch } = useLanguage();
  // Before any choice nothing is highlighted; a pick is highlighted at once, before it applies.
  const selected = pending ? pending === language : chosen && current === language;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    choose(language);
    onChosen?.();
  };
  return (
    <a
      href={languageHref(language)}
      hrefLang={language}
      lang={language}
      className={`${className ?? ''}${selected ? ' is-selected' : ''}`}
      aria-current={selected ? 'true' : undefined}
      onClick={onClick}
      onPointerEnter={() => prefetch(language)}
      onFocus={() => prefetch(language)}
    >
      {children}
    </a>
  );
}
