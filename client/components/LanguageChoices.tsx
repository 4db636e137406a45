import { useLanguage } from '../language.tsx';
import { Flag } from './Flag.tsx';
import { LanguageLink } from './LanguageLink.tsx';

/** The offered languages' links with their flags, as the overlay and the dropdown list them. */
export function LanguageChoices({
  listClassName,
  linkClassName,
  onChosen,
}: {
  listClassName: string;
  linkClassName: string;
  onChosen?: () => void;
}) {
  const { languages } = useLanguage();
  return (
    <ul className={listClassName}>
      {languages.map((language) => (
        <li key={language.code}>
          <LanguageLink language={language.code} className={linkClassName} onChosen={onChosen}>
            <Flag language={language} />
            <span lang={language.code} dir={language.dir}>
              {language.name}
            </span>
          </LanguageLink>
        </li>
      ))}
    </ul>
  );
}
