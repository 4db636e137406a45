import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../use-document-title.ts';

export function NotFound() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  useDocumentTitle('meta.notFoundTitle');

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  return (
    <main id="main" className="not-found" tabIndex={-1}>
      <h1 className="not-found__code">{t('notFound.title')}</h1>
      <p className="not-found__message">{t('notFound.message')}</p>
      <Link className="button button--primary" to="/">
        {t('notFound.home')}
      </Link>
    </main>
  );
}
