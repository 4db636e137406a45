import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useAppData } from '../app-data.tsx';
import { Data, withElements } from '../data-text.tsx';

export const PRIVACY_ANCHOR = 'Datenschutzerklärung';

export function Footer() {
  const { t } = useTranslation();
  const { content } = useAppData();
  return (
    <footer className="footer">
      <nav aria-label={t('footer.impressum')}>
        <ul className="footer__links">
          <li>
            <Link to="/impressum">{t('footer.impressum')}</Link>
          </li>
          <li>
            <Link to={`/impressum#${PRIVACY_ANCHOR}`}>{t('footer.privacy')}</Link>
          </li>
        </ul>
      </nav>
      <p className="footer__copyright">
        {withElements(t, 'footer.copyright', {
          year: content.copyrightYear,
          company: <Data>{content.company.name}</Data>,
        })}
      </p>
    </footer>
  );
}
