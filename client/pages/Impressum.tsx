import { inLanguage } from '../../shared/languages.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppData } from '../app-data.tsx';
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
  const address = `${company.street}, ${company.postalCode} ${company.city}, ${country}`;

  return (
    <main id="main" className="legal" tabIndex={-1}>
      <Link className="button button--quiet legal__back" to="/">
        ← {t('impressum.back')}
      </Link>
      <h1>{t('impressum.title')}</h1>
      <p>{t('impressum.intro')}</p>

      <section aria-labelledby="owner-heading">
        <h2 id="owner-heading">{t('impressum.owner')}</h2>
        <p>
          <strong>{company.name}</strong>
          <br />
          {company.legalForm}
          <br />
          {company.street}
          <br />
          {company.postalCode} {company.city}
          <br />
          {country}
        </p>
        <h3>{t('impressum.contact')}</h3>
        <dl className="legal__facts">
          <dt>{t('impressum.phone')}</dt>
          <dd>
            <a href={`tel:${company.phone.replace(/[^+\d]/g, '')}`}>{company.phone}</a>
          </dd>
          <dt>{t('impressum.email')}</dt>
          <dd>
            <a href={`mailto:${company.email}`}>{company.email}</a>
          </dd>
          <dt>{t('impressum.website')}</dt>
          <dd>
            <a href={company.website}>{company.website}</a>
          </dd>
        </dl>
        <dl className="legal__facts">
          <dt>{t('impressum.register')}</dt>
          <dd>{company.register}</dd>
          <dt>{t('impressum.registerCourt')}</dt>
          <dd>{company.registerCourt}</dd>
          <dt>{t('impressum.vatId')}</dt>
          <dd>{company.vatId}</dd>
          <dt>{t('impressum.managingDirectors')}</dt>
          <dd>{company.managingDirectors}</dd>
          <dt>{t('impressum.authority')}</dt>
          <dd>{company.authority}</dd>
          <dt>{t('impressum.purpose')}</dt>
          <dd>{t('impressum.purposeText')}</dd>
        </dl>
      </section>

      <section id={PRIVACY_ANCHOR} className="legal__privacy" aria-labelledby="privacy-heading" tabIndex={-1}>
        <h2 id="privacy-heading">{t('privacy.title')}</h2>
        <p>{t('privacy.intro')}</p>
        <h3>{t('privacy.scope.title')}</h3>
        <p>{t('privacy.scope.body', { company: company.name, address, email: company.privacyEmail })}</p>
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
        <p>{t('privacy.objection.body', { email: company.privacyEmail })}</p>
        <h3>{t('privacy.complaint.title')}</h3>
        <p>{t('privacy.complaint.body')}</p>
        <p className="legal__updated">{t('privacy.lastUpdate', { date: inLanguage(privacyUpdated, language) })}</p>
      </section>
    </main>
  );
}
