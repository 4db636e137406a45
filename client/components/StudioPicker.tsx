import { inLanguage } from '../../shared/languages.ts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Studio, StudioText } from '../../shared/page-data.ts';
import { useAppData } from '../app-data.tsx';
import { Data } from '../data-text.tsx';
import { useLanguage } from '../language.tsx';
import { ClickToLoadFrame } from './ClickToLoadFrame.tsx';

/**
 * The studio picker. The server renders the first studio so its HTML can be cached;
 * right after hydration the browser switches to a random one, as SPEC.md asks.
 * Without scripts the dropdown cannot switch, so every studio's address and map link
 * is listed too, inside <noscript>: React renders its children on the server only,
 * so with scripts on the list is neither shown nor hydrated.
 */
export function StudioPicker() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { studios, mapProvider } = useAppData().content;
  const shown = (s: Studio) => inLanguage(s.byLanguage, language);
  const [selectedId, setSelectedId] = useState(studios[0]!.id);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- random only after hydration, so the server's HTML matches
    setSelectedId(studios[Math.floor(Math.random() * studios.length)]!.id);
  }, [studios]);

  const studio = studios.find((s) => s.id === selectedId) ?? studios[0]!;
  return (
    <section className="section section--location" aria-labelledby="location-heading">
      <h2 id="location-heading">{t('location.heading')}</h2>
      <p className="section__intro">{t('location.intro')}</p>
      <div className="picker">
        <label className="picker__label" htmlFor="studio-select">
          {t('location.select')}
        </label>
        <select
          id="studio-select"
          className="picker__select"
          value={selectedId}
          onChange={(e) => setSelectedId(e.target.value)}
        >
          {studios.map((s) => (
            <option key={s.id} value={s.id}>
              {shown(s).name}
            </option>
          ))}
        </select>
      </div>
      <div className="map-panel">
        <div className="map-panel__info">
          <h3 className="map-panel__name">{shown(studio).name}</h3>
          <p className="map-panel__label">{t('location.address')}</p>
          <address className="map-panel__address">
            <AddressLine text={shown(studio)} />
          </address>
          <a className="map-panel__link" href={studio.mapLinkUrl} target="_blank" rel="noopener noreferrer">
            {t('location.openMap')} <span className="visually-hidden">{t('studios.newTab')}</span>
          </a>
        </div>
        <ClickToLoadFrame
          id="map"
          boxClassName="map-panel__box"
          className="map-panel__map"
          provider={mapProvider}
          frame={() => ({
            src: studio.mapEmbedUrl,
            title: t('location.mapTitle', { name: shown(studio).name }),
            referrerPolicy: 'strict-origin-when-cross-origin',
            loading: 'lazy',
          })}
          loadLabel={t('location.loadMap', { provider: mapProvider.name })}
          link={{
            href: studio.mapLinkUrl,
            label: t('location.mapAt', { name: shown(studio).name, provider: mapProvider.name }),
          }}
        />
      </div>
      <noscript>
        <h3 className="studio-list__heading">{t('location.allStudios')}</h3>
        <ul className="studio-list">
          {studios.map((s) => (
            <li key={s.id} className="studio-list__item">
              <span className="studio-list__name">{shown(s).name}</span>
              <address className="studio-list__address">
                <AddressLine text={shown(s)} />
              </address>
              <a href={s.mapLinkUrl} target="_blank" rel="noopener noreferrer">
                {t('location.openMap')}{' '}
                <span className="visually-hidden">
                  {shown(s).name} {t('studios.newTab')}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </noscript>
    </section>
  );
}

/**
 * A studio's address on one line, as `addressLine` writes it: the address as the content file
 * gives it, set apart so it keeps its written order on a right-to-left page, and the country in
 * the page's language.
 */
function AddressLine({ text }: { text: StudioText }) {
  return (
    <>
      <Data>{text.address}</Data>, {text.country}
    </>
  );
}
