import { inLanguage } from '../../shared/languages.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppData } from '../app-data.tsx';
import { Data, LtrData, withElements } from '../data-text.tsx';
import { EmbedChoiceWithdrawal } from '../components/EmbedChoiceWithdrawal.tsx';
import { PRIVACY_ANCHOR } from '../components/Footer.tsx';
import { useLanguage } from '../language.tsx';
import { useDocumentTitle } from '../use-document-title.ts';

const RECIPIENTS = [1, 2, 3, 4] as const;
const RIGHTS = [1, 2, 3, 4, 5, 6] as const;

export function Impressum() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { company, privacyUpdated, video, mapProvider } = useAppData().content;
  useDocumentTitle('meta.impressumTitle');
  const country = inLanguage(company.country, language);
  // The street, postal code and town as written; the country in the page's language.
  const address = (
    <>
      <Data>
        {company.street}, {company.postalCode} {company.city}
      </Data>
      , {country}
    </>
  );

  return (
    <main id="main" className="legal" tabIndex={-1}>
      <Link className="button button--quiet legal__back" to="/">
        <span className="arrow" aria-hidden="true">
          ←
        </span>{' '}
        {t('impressum.back')}
      </Link>
      <h1>{t('impressum.title')}</h1>
      <p>{t('impressum.intro')}</p>

      <section aria-labelledby="owner-heading">
        <h2 id="owner-heading">{t('impressum.owner')}</h2>
        <p>
          <strong>
            <Data>{company.name}</Data>
          </strong>
          <br />
          <Data>{company.legalForm}</Data>
          <br />
          <Data>{company.street}</Data>
          <br />
          <Data>
            {company.postalCode} {company.city}
          </Data>
          <br />
          {country}
        </p>
        <h3>{t('impressum.contact')}</h3>
        <dl className="legal__facts">
          <dt>{t('impressum.phone')}</dt>
          <dd>
            <a href={`tel:${company.phone.replace(/[^+\d]/g, '')}`} dir="ltr">
              {company.phone}
            </a>
          </dd>
          <dt>{t('impressum.email')}</dt>
          <dd>
            <a href={`mailto:${company.email}`} dir="ltr">
              {company.email}
            </a>
          </dd>
          <dt>{t('impressum.website')}</dt>
          <dd>
            <a href={company.website} dir="ltr">
              {company.website}
            </a>
          </dd>
        </dl>
        <dl className="legal__facts">
          <dt>{t('impressum.register')}</dt>
          <dd>
            <Data>{company.register}</Data>
          </dd>
          <dt>{t('impressum.registerCourt')}</dt>
          <dd>
            <Data>{company.registerCourt}</Data>
          </dd>
          <dt>{t('impressum.vatId')}</dt>
          <dd>
            <Data>{company.vatId}</Data>
          </dd>
          <dt>{t('impressum.managingDirectors')}</dt>
          <dd>
            <Data>{company.managingDirectors}</Data>
          </dd>
          <dt>{t('impressum.authority')}</dt>
          <dd>
            <Data>{company.authority}</Data>
          </dd>
          <dt>{t('impressum.purpose')}</dt>
          <dd>{t('impressum.purposeText')}</dd>
        </dl>
      </section>

      <section id={PRIVACY_ANCHOR} className="legal__privacy" aria-labelledby="privacy-heading" tabIndex={-1}>
        <h2 id="privacy-heading">{t('privacy.title')}</h2>
        <p>{t('privacy.intro')}</p>
        <h3>{t('privacy.scope.title')}</h3>
        <p>
          {withElements(t, 'privacy.scope.body', {
            company: <Data>{company.name}</Data>,
            address,
            email: <LtrData>{company.privacyEmail}</LtrData>,
          })}
        </p>
        <h3>{t('privacy.maps.title')}</h3>
        <p>{t('privacy.maps.body')}</p>
        <h3>{t('privacy.embeds.title')}</h3>
        <p>{t('privacy.embeds.intro', { video: video.provider.name, map: mapProvider.name })}</p>
        <ul>
          {[video.provider, mapProvider].map((provider) => (
            <li key={provider.name}>
              {t(provider.load === 'on-click' ? 'privacy.embeds.onClick' : 'privacy.embeds.atOnce', {
                provider: provider.name,
              })}{' '}
              <a href={provider.privacyUrl}>{t('embeds.privacy', { provider: provider.name })}</a>
            </li>
          ))}
        </ul>
        <p>{t('privacy.embeds.receives')}</p>
        <p>{t('privacy.embeds.withdraw')}</p>
        <EmbedChoiceWithdrawal />
        <h3>{t('privacy.recipients.title')}</h3>
        <p>{t('privacy.recipients.intro')}</p>
        <ul>
          {RECIPIENTS.map((n) => (
            <li key={n}>{t(`privacy.recipients.item${n}`)}</li>
          ))}
        </ul>
        <h3>{t('privacy.storage.title')}</h3>
        <p>{t('privacy.storage.body')}</p>
        <h3>{t('privacy.rights.title')}</h3>
        <p>{t('privacy.rights.intro')}</p>
        <ul>
          {RIGHTS.map((n) => (
            <li key={n}>{t(`privacy.rights.item${n}`)}</li>
          ))}
        </ul>
        <h3>{t('privacy.objection.title')}</h3>
        <p>{withElements(t, 'privacy.objection.body', { email: <LtrData>{company.privacyEmail}</LtrData> })}</p>
        <h3>{t('privacy.complaint.title')}</h3>
        <p>{t('privacy.complaint.body')}</p>
        <p className="legal__updated">{t('privacy.lastUpdate', { date: inLanguage(privacyUpdated, language) })}</p>
      </section>
    </main>
  );
}
