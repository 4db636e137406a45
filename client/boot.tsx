import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { BOOTSTRAP_ELEMENT_ID, ROOT_ELEMENT_ID, type BootstrapData } from '../shared/bootstrap.ts';
import { I18N_OPTIONS, NAMESPACE } from '../shared/i18n-options.ts';
import { App } from './App.tsx';
import { keepFocusClearOfBar } from './focus-clear-of-bar.ts';

/** Hydrates the server's HTML with the data it sent along. */
export function boot(doc: Document = document, showErrorStack = BUILD_MODE !== 'production') {
  const root = doc.getElementById(ROOT_ELEMENT_ID);
  if (!root) throw new Error('Failed to find the root element');
  const data = readBootstrapData(doc);
  keepFocusClearOfBar(doc);

  const i18n = i18next.createInstance();
  void i18n.init({
    ...I18N_OPTIONS,
    lng: data.language,
    resources: { [data.language]: { [NAMESPACE]: data.translations } },
  });

  // As a transition, hydration is done in slices that leave the main thread free between them.
  let reactRoot!: Root;
  startTransition(() => {
    reactRoot = hydrateRoot(
      root,
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <BrowserRouter>
            <App page={data} showErrorStack={showErrorStack} livePollSeconds={data.livePollSeconds} />
          </BrowserRouter>
        </I18nextProvider>
      </StrictMode>,
      // A mismatch between server and browser is a bug worth seeing in every console.
      { onRecoverableError: (error) => console.error('Recoverable hydration error:', error) },
    );
  });
  return reactRoot;
}

function readBootstrapData(doc: Document): BootstrapData {
  const element = doc.getElementById(BOOTSTRAP_ELEMENT_ID);
  if (!element?.textContent) throw new Error('The page carries no bootstrap data');
  return JSON.parse(element.textContent) as BootstrapData;
}
