import { useTranslation } from 'react-i18next';
import { inLanguage } from '../../shared/languages.ts';
import { chapterFragment, type Chapter } from '../../shared/recording.ts';
import { useAppData } from '../app-data.tsx';
import { useLanguage } from '../language.tsx';
import { watchAddressAt } from '../player-address.ts';
import { usePageEvent } from '../use-event-clock.ts';
import { useSegmentTime } from './Programme.tsx';

interface Props {
  chapters: Chapter[];
  /** The chapter the visitor chose, or that the page's address names. */
  chosen: string | null;
  onChoose: (id: string) => void;
  /** The recording's watch page at its provider, where each chapter leads without scripts. */
  watchUrl: string;
}

/**
 * The recording's chapters under its player: each segment that took place, its time, title and
 * studio. Without scripts each is a link to the recording at the provider at its moment; with
 * them, choosing one plays the recording from there on the page.
 */
export function Chapters({ chapters, chosen, onChoose, watchUrl }: Props) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content } = useAppData();
  const { programme } = usePageEvent();
  const timeOf = useSegmentTime();
  return (
    <nav className="chapters" aria-labelledby="chapters-heading">
      <h3 id="chapters-heading">{t('video.chapters')}</h3>
      <ol className="chapters__list">
        {chapters.map(({ id, index, studioId, start }) => {
          const studio = content.studios.find((each) => each.id === studioId);
          return (
            <li key={id} id={chapterFragment(id)}>
              <a
                className="chapters__chapter"
                href={watchAddressAt(watchUrl, start)}
                aria-current={chosen === id ? 'true' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  onChoose(id);
                }}
              >
                <span className="chapters__time">{timeOf(index, programme[index]!.start)}</span>
                <span className="chapters__title">{t(`programme.segments.${id}.title`)}</span>
                {studio && <span className="chapters__studio">{inLanguage(studio.byLanguage, language).name}</span>}
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
