import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useRoutes } from 'react-router-dom';
import type { AppData, RenderedPage } from '../shared/bootstrap.ts';
import { AppDataProvider } from './app-data.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Footer } from './components/Footer.tsx';
import { HydrateLater } from './components/HydrateLater.tsx';
import { LanguageMenu } from './components/LanguageMenu.tsx';
import { LanguageOverlay } from './components/LanguageOverlay.tsx';
import { LateLiveNotice, LiveNotice } from './components/LiveNotice.tsx';
import { PageHead } from './components/PageHead.tsx';
import { PageRehearsalBanner } from './components/RehearsalBanner.tsx';
import { HydrationProvider } from './hydration.tsx';
import { LanguageProvider, useLanguage } from './language.tsx';
import { useLiveState } from './live/use-live-state.ts';
import { routes } from './routes.tsx';

export interface AppProps {
  /** The page as the server rendered it (in the browser: the bootstrap data it sent). */
  page: RenderedPage;
  showErrorStack: boolean;
  /** How often the open page asks for the live state; none (the server, most tests): it keeps the one it has. */
  livePollSeconds?: number;
}

/** The whole page below the router; the server and the browser wrap it in their own router and i18n instance. */
export function App({ page, showErrorStack, livePollSeconds }: AppProps) {
  return (
    <HydrationProvider>
      <FollowedAppData app={page.app} livePollSeconds={livePollSeconds}>
        <LanguageProvider initialLanguage={page.language} initialChosen={page.languageChosen}>
          {/* Outside the error boundary: a rehearsal's page says so whatever happens below. */}
          <PageRehearsalBanner />
          <ErrorBoundary showStack={showErrorStack}>
            <Layout />
          </ErrorBoundary>
        </LanguageProvider>
      </FollowedAppData>
    </HydrationProvider>
  );
}

/** The page's data with the live state it shows now, which follows the server's once hydrated. */
function FollowedAppData({
  app,
  livePollSeconds,
  children,
}: {
  app: AppData;
  livePollSeconds: number | undefined;
  children: ReactNode;
}) {
  const live = useLiveState(app.live, livePollSeconds);
  const value = useMemo(() => (live === app.live ? app : { ...app, live }), [app, live]);
  return <AppDataProvider value={value}>{children}</AppDataProvider>;
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
        <LateLiveNotice />
        <PageHead />
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
