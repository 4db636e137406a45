// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../client/ErrorBoundary.tsx';
import { Logo } from '../../client/components/Logo.tsx';
import { forgetProviders } from '../../client/embed-consent.ts';
import { DAY_MS } from '../../shared/event-clock.ts';
import { I18N_OPTIONS } from '../../shared/i18n-options.ts';
import { click, content, dictionary, jsonResponse, renderApp } from '../helpers/render-client.tsx';
import { consoleCalls } from '../setup.ts';

afterEach(() => vi.unstubAllGlobals());
// A provider let in by one test's click stays let in for the rest of that "visit".
afterEach(() => act(() => forgetProviders()));

describe('the 404 page in the browser', () => {
  it('logs the unknown path with console.error', () => {
    const errors = consoleCalls('error');
    renderApp({ path: '/does/not/exist' });
    expect(document.body.textContent).toContain('Hoppla! Seite nicht gefunden');
    expect(errors.some((args) => args.includes('/does/not/exist'))).toBe(true);
    expect(document.querySelector('a.button[href="/"]')).not.toBeNull();
  });
});

describe('the footer', () => {
  it('links to the legal notice and its privacy section, and leads there in place', () => {
    renderApp();
    const links = [...document.querySelectorAll('.footer a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/impressum', '/impressum#Datenschutzerklärung']);
    expect(document.querySelector('.footer__copyright')!.textContent).toBe(
      '© 2027 Horizon Media Events GmbH. Alle Rechte vorbehalten.',
    );
    click(document.querySelectorAll('.footer a')[1]!);
    expect(window.location.pathname).toBe('/impressum');
    expect(document.getElementById('Datenschutzerklärung')).not.toBeNull();
  });
});

describe('the studio picker', () => {
  it('shows the chosen studio’s address, and its map once asked for', () => {
    renderApp();
    const select = document.querySelector<HTMLSelectElement>('#studio-select')!;
    expect(document.querySelector('label[for="studio-select"]')!.textContent).toBe('Studio auswählen');
    act(() => {
      select.value = 'zurich';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    click(document.querySelector('.map-panel .embed-placeholder__load'));
    const frame = document.querySelector('.map-panel__map')!;
    expect(frame.getAttribute('title')).toBe('Studio Zürich Location');
    expect(frame.getAttribute('loading')).toBe('lazy');
    expect(frame.getAttribute('src')).toContain('D%C3%BCbendorf');
    expect(document.querySelector('.map-panel__address')!.textContent).toContain('8600 Dübendorf');
  });

  it('on a first visit, loads no video or map frame, before the language choice or after it', async () => {
    renderApp({ chosen: false });
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    click(document.querySelector('.overlay a[hreflang="de"]'));
    // The overlay closes a moment after the choice.
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(document.querySelector('.overlay')).toBeNull();
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect([...document.querySelectorAll('.embed-placeholder')].map((box) => box.className)).toEqual([
      'video-frame__player embed-placeholder',
      'map-panel__map embed-placeholder',
    ]);
  });

  it('with scripts on, leaves the address list for visitors without them unrendered', () => {
    renderApp();
    const noscript = document.querySelector('section[aria-labelledby="location-heading"] noscript')!;
    expect(noscript.childNodes).toHaveLength(0);
    expect(document.body.textContent).not.toContain('Alle Studios');
    expect(document.querySelectorAll('address')).toHaveLength(1);
  });
});

describe('the calendar link in the hero', () => {
  // Offered until the start: the visitor's clock is set three days before it, whatever the day.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(content.public.event.start - 3 * DAY_MS);
  });
  afterEach(() => vi.useRealTimers());

  it('follows a language switch made in place', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('es'))),
    );
    renderApp({ language: 'de' });
    const link = () => document.querySelector('.hero__calendar')!;
    expect(link().getAttribute('href')).toBe('/event.ics?lng=de');
    expect(link().textContent).toBe('Zum Kalender hinzufügen');
    click(document.querySelector('.language-menu a[hreflang="es"]'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(link().getAttribute('href')).toBe('/event.ics?lng=es');
    expect(link().textContent).toBe('Añadir al calendario');
  });
});

describe('the logo', () => {
  const i18n = i18next.createInstance();
  void i18n.init({ ...I18N_OPTIONS, lng: 'en', resources: { en: { translation: dictionary('en') } } });
  const mount = (url: string | null) => {
    document.body.innerHTML = '<div id="logo"></div>';
    const root = createRoot(document.getElementById('logo')!);
    act(() =>
      root.render(
        <I18nextProvider i18n={i18n}>
          <Logo url={url} />
        </I18nextProvider>,
      ),
    );
    return root;
  };

  const drawnName = () => {
    const drawn = document.querySelector('.logo--drawn')!;
    expect(drawn.getAttribute('aria-label')).toBe('Horizon Live 2027');
    return drawn.querySelector('.logo__name')!.textContent;
  };

  it('draws the mark with the name when the image fails', () => {
    vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(false);
    mount('/images/missing.png');
    const img = document.querySelector('img.logo')!;
    expect(img.getAttribute('alt')).toBe('Horizon Live 2027');
    act(() => void img.dispatchEvent(new Event('error')));
    expect(document.querySelector('img')).toBeNull();
    expect(drawnName()).toBe('Horizon Live 2027');
  });

  it('notices an image that failed before the scripts ran', () => {
    vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(0);
    mount('/images/missing.png');
    expect(drawnName()).toBe('Horizon Live 2027');
  });

  it('keeps an image that loaded', () => {
    vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(240);
    mount('/images/brand.png');
    expect(document.querySelector('img.logo')).not.toBeNull();
  });

  it('draws the mark with the name when the content names no logo image', () => {
    mount(null);
    expect(drawnName()).toBe('Horizon Live 2027');
  });
});

describe('an error while rendering in the browser', () => {
  it('shows the error page with the message', () => {
    consoleCalls('error');
    const Broken = () => {
      throw new Error('Widget exploded');
    };
    document.body.innerHTML = '<div id="x"></div>';
    const root = createRoot(document.getElementById('x')!);
    act(() =>
      root.render(
        <ErrorBoundary showStack={false}>
          <Broken />
        </ErrorBoundary>,
      ),
    );
    expect(document.querySelector('h1')!.textContent).toBe('Unexpected Application Error!');
    expect(document.body.textContent).toContain('Widget exploded');
    expect(document.querySelector('pre')).toBeNull();
  });
});
