import { inLanguage } from '../../shared/languages.ts';
import { useTranslation } from 'react-i18next';
import { useAppData } from '../app-data.tsx';
import { Data } from '../data-text.tsx';
import { useLanguage } from '../language.tsx';

export function StudioShowcase() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { content } = useAppData();
  return (
    <section className="section section--studios" aria-labelledby="studios-heading">
      <h2 id="studios-heading">{t('studios.heading')}</h2>
      <p className="section__intro">{t('studios.intro')}</p>
      <ul className="studio-grid">
        {content.studios.map((studio) => {
          const shown = inLanguage(studio.byLanguage, language);
          return (
            <li key={studio.id}>
              <a className="studio-card" href={studio.siteUrl} target="_blank" rel="noopener noreferrer">
                <img
                  className="studio-card__picture"
                  src={studio.picture.src}
                  srcSet={studio.picture.srcset}
                  sizes={studio.picture.srcset ? '(min-width: 48rem) 36rem, 100vw' : undefined}
                  width={studio.picture.width}
                  height={studio.picture.height}
                  alt=""
                  loading="lazy"
                  decoding="async"
                />
                <span className="studio-card__body">
                  <span className="studio-card__name">
                    <Data>{shown.name}</Data>
                  </span>
                  <span className="studio-card__city">
                    <Data>{shown.city}</Data>, {shown.country}
                  </span>
                  <span className="studio-card__visit">
                    {t('studios.visit')} <span className="visually-hidden">{t('studios.newTab')}</span>
                  </span>
                </span>
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
