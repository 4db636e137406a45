import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { App } from '../../client/App.tsx';
import { loadContent, type SiteContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import type { PageSlide } from '../../shared/page-data.ts';
import type { Rehearsal } from '../../shared/rehearsal.ts';
import type { EventClock } from '../../shared/event-clock.ts';
import { I18N_OPTIONS, NAMESPACE } from '../../shared/i18n-options.ts';
import type { Language } from '../../shared/languages.ts';
import type { LiveState } from '../../shared/live-state.ts';

// Tell React this is a test environment that wraps updates in act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export const dictionary = (lng: Language) =>
  JSON.parse(readFileSync(path.join(LOCALES_DIR, lng, 'translation.json'), 'utf8')) as Record<string, any>;

export const content = loadContent(DEFAULT_CONTENT_PATH);

/** The live state of a site without a live file. */
export const NO_LIVE_STATE: LiveState = {
  version: 'none',
  updated: new Date(0).toISOString(),
  notice: null,
  status: null,
  schedule: null,
  stream: null,
  recording: null,
};

interface Options {
  language?: Language;
  chosen?: boolean;
  heroSlides?: PageSlide[] | null;
  logoUrl?: string | null;
  logoSize?: { width: number; height: number };
  path?: string;
  /** The clock the page was rendered at; by default none, and the hero reads the test's clock. */
  clock?: EventClock | null;
  rehearsal?: Rehearsal | null;
  content?: SiteContent;
  /** The live state the page was rendered with; by default no notice and no status. */
  live?: LiveState;
  /** How often the page asks for the live state; by default it does not. */
  livePollSeconds?: number;
}

/** Renders the app into the test document, as the browser would after a client-side start. */
export function renderApp(options: Options = {}): { container: HTMLElement; root: Root } {
  const language = options.language ?? 'de';
  const site = options.content ?? content;
  window.history.replaceState(null, '', options.path ?? '/');
  const i18n = i18next.createInstance();
  void i18n.init({ ...I18N_OPTIONS, lng: language, resources: { [language]: { [NAMESPACE]: dictionary(language) } } });
  document.body.innerHTML = '<div id="root"></div>';
  const container = document.getElementById('root')!;
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={i18n}>
        <BrowserRouter>
          <App
            page={{
              language,
              languageChosen: options.chosen ?? true,
              app: {
                content: site.public,
                heroSlides: options.heroSlides === undefined ? site.heroSlides : options.heroSlides,
                logoUrl: options.logoUrl === undefined ? site.logoUrl : options.logoUrl,
                ...(options.logoSize ? { logoSize: options.logoSize } : {}),
                live: options.live ?? NO_LIVE_STATE,
                clock: options.clock ?? null,
                rehearsal: options.rehearsal ?? null,
              },
            }}
            showErrorStack
            livePollSeconds={options.livePollSeconds}
          />
        </BrowserRouter>
      </I18nextProvider>,
    ),
  );
  return { container, root };
}

export function click(element: Element | null): void {
  if (!element) throw new Error('nothing to click');
  act(() => {
    element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
  });
}

export function jsonResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}
