import { LANGUAGES, LANGUAGE_NAMES } from '../../shared/languages.ts';
import { Flag } from './Flag.tsx';
import { LanguageLink } from './LanguageLink.tsx';

/** The three language links with their flags, as the overlay and the dropdown list them. */
export function LanguageChoices({
  listClassName,
  linkClassName,
  placement,
  onChosen,
}: {
  listClassName: string;
  linkClassName: string;
  placement: string;
  onChosen?: () => void;
}) {
  return (
    <ul className={listClassName}>
      {LANGUAGES.map((lng) => (
        <li key={lng}>
          <LanguageLink language={lng} className={linkClassName} onChosen={onChosen}>
            <Flag language={lng} placement={placement} />
            <span>{LANGUAGE_NAMES[lng]}</span>
          </LanguageLink>
        </li>
      ))}
    </ul>
  );
}
