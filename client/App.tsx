import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useRoutes } from 'react-router-dom';
import type { RenderedPage } from '../shared/bootstrap.ts';
import { AppDataProvider } from './app-data.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Footer } from './components/Footer.tsx';
import { HydrateLater } from './components/HydrateLater.tsx';
import { LanguageMenu } from './components/LanguageMenu.tsx';
import { LanguageOverlay } from './components/LanguageOverlay.tsx';
import { LiveNotice } from './components/LiveNotice.tsx';
import { HydrationProvider } from './hydration.tsx';
import { LanguageProvider, useLanguage } from './language.tsx';
import { routes } from './routes.tsx';

export interface AppProps {
  /** The page as the server rendered it (in the browser: the bootstrap data it sent). */
  page: RenderedPage;
  showErrorStack: boolean;
}

/** The whole page below the router; the server and the browser wrap it in their own router and i18n instance. */
export function App({ page, showErrorStack }: AppProps) {
  return (
    <HydrationProvider>
      <AppDataProvider value={page.app}>
        <LanguageProvider initialLanguage={page.language} initialChosen={page.languageChosen}>
          <ErrorBoundary showStack={showErrorStack}>
            <Layout />
          </ErrorBoundary>
        </LanguageProvider>
      </AppDataProvider>
    </HydrationProvider>
  );
}

function Layout() {
  const { t } = useTranslation();
  const { chosen } = useLanguage();
  const page = useRoutes(routes);
  useScrollOnNavigation();
  return (
    <>
      <div className="page" inert={!chosen}>
        <a className="skip-link" href="#main">
          {t('skipToContent')}
        </a>
        {/* Above the language bar: the hero slides under the bar, and would cover a notice below it. */}
        <LiveNotice />
        <LanguageMenu />
        {page}
        <HydrateLater>
          <Footer />
        </HydrateLater>
      </div>
      {!chosen && <LanguageOverlay />}
    </>
  );
}

/** After in-app navigation: to the anchor named in the hash, else to the top. */
function useScrollOnNavigation() {
  const { pathname, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      if (!hash) return;
    }
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [pathname, hash]);
}
