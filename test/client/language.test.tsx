// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, dictionary, jsonResponse, renderApp } from '../helpers/render-client.tsx';
import { consoleCalls } from '../setup.ts';

const overlay = () => document.querySelector('[role="dialog"]');
const choice = (lng: string) => overlay()!.querySelector(`a[hreflang="${lng}"]`);
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  document.cookie = 'selectedLanguage=; Max-Age=0; Path=/';
  document.documentElement.lang = 'de';
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the language overlay', () => {
  it('shows while no language is chosen, with links that work without scripts', () => {
    renderApp({ chosen: false });
    expect(overlay()).not.toBeNull();
    expect(overlay()!.textContent).toContain('Sprache wählen');
    expect([...overlay()!.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '?lng=de',
      '?lng=en',
      '?lng=es',
    ]);
    expect(overlay()!.querySelectorAll('.flag svg')).toHaveLength(3);
    expect(overlay()!.querySelector('.is-selected')).toBeNull();
  });

  it.each(['de', 'es'] as const)(
    "speaks the specification's English words on a first visit in %s, with that language beneath",
    (language) => {
      // The overlay focuses its first choice, which fetches that language's file early.
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => jsonResponse(dictionary('de'))),
      );
      const { root } = renderApp({ chosen: false, language });
      const title = overlay()!.querySelector('h2')!;
      expect(title.textContent).toBe('Select Language');
      expect(title.getAttribute('lang')).toBe('en');
      expect(overlay()!.querySelector('#overlay-subtitle')!.textContent).toBe('Please choose your preferred language');
      const translated = overlay()!.querySelector('.overlay__translation')!;
      expect(translated.getAttribute('lang')).toBe(language);
      expect(translated.textContent).toBe(
        `${dictionary(language).overlay.title} · ${dictionary(language).overlay.subtitle}`,
      );
      act(() => root.unmount());
    },
  );

  it('says it once in English when the page is English', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('de'))),
    );
    const { root } = renderApp({ chosen: false, language: 'en' });
    expect(overlay()!.querySelector('h2')!.textContent).toBe('Select Language');
    expect(overlay()!.querySelector('.overlay__translation')).toBeNull();
    act(() => root.unmount());
  });

  it('does not show once a language is chosen', () => {
    renderApp({ chosen: true });
    expect(overlay()).toBeNull();
  });

  it('highlights a choice at once, applies it after 150 ms, stores it and closes', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(dictionary('en')));
    vi.stubGlobal('fetch', fetchMock);
    renderApp({ chosen: false });

    click(choice('en'));
    expect(choice('en')!.classList.contains('is-selected')).toBe(true);
    expect(fetchMock).toHaveBeenCalledWith('/locales/en/translation.json');

    await advance(149);
    expect(overlay()).not.toBeNull();
    expect(document.documentElement.lang).toBe('de');

    await advance(1);
    expect(overlay()).toBeNull();
    expect(document.documentElement.lang).toBe('en');
    expect(document.body.textContent).toContain('Our studios');
    expect(localStorage.getItem('selectedLanguage')).toBe('en');
    expect(document.cookie).toContain('selectedLanguage=en');
  });

  it('waits for a slow translation file before applying the choice', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => setTimeout(() => resolve(jsonResponse(dictionary('es'))), 600))),
    );
    renderApp({ chosen: false });
    click(choice('es'));
    await advance(300);
    expect(overlay()).not.toBeNull();
    await advance(300);
    expect(overlay()).toBeNull();
    expect(document.body.textContent).toContain('Nuestros estudios');
  });

  it('logs a failed load and shows the keys instead of another language', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 503 })),
    );
    const errors = consoleCalls('error');
    renderApp({ chosen: false });
    click(choice('en'));
    await advance(150);
    expect(overlay()).toBeNull();
    expect(errors.map((args) => args[0])).toContain('Failed to load translations');
    expect(document.body.textContent).toContain('studios.heading');
    expect(document.body.textContent).not.toContain('Unsere Studios');
  });

  it('applies a choice stored in this browser even without the cookie', async () => {
    localStorage.setItem('selectedLanguage', 'en');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('en'))),
    );
    renderApp({ chosen: false });
    await advance(0);
    expect(overlay()).toBeNull();
    expect(document.body.textContent).toContain('Our studios');
  });

  it("stores a returning visitor's language for this browser in a task after hydration, not in the tasks that hydrate", async () => {
    renderApp({ language: 'en', chosen: true });
    expect(localStorage.getItem('selectedLanguage')).toBeNull();
    await advance(1000);
    expect(localStorage.getItem('selectedLanguage')).toBe('en');
  });
});

describe('the language dropdown', () => {
  it('shows the current flag and switches in place', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('es'))),
    );
    renderApp({ language: 'de', chosen: true });
    const menu = document.querySelector('.language-menu')!;
    expect(menu.querySelector('summary')!.textContent).toBe('DE – Sprache: Deutsch');
    menu.querySelector('details')!.setAttribute('open', '');
    click(menu.querySelector('a[hreflang="es"]'));
    expect(menu.querySelector('details')!.hasAttribute('open')).toBe(false);
    await advance(150);
    expect(document.documentElement.lang).toBe('es');
    expect(menu.querySelector('summary')!.textContent).toBe('ES – Idioma: Español');
    expect(localStorage.getItem('selectedLanguage')).toBe('es');
  });

  it('names the places in the new language from the page’s data, and the event from the new dictionary', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('es'))),
    );
    // Country names and city lists come with the page: the browser's own Intl never makes them.
    const displayNames = vi.spyOn(Intl, 'DisplayNames');
    const listFormat = vi.spyOn(Intl, 'ListFormat');
    renderApp({ language: 'de', chosen: true });
    const cities = () => document.querySelector('.hero__cities')!.textContent;
    const cards = () => [...document.querySelectorAll('.studio-card__city')].map((city) => city.textContent);
    expect(cities()).toBe('München · Marbella · Wien · Zürich');
    expect(cards()).toEqual(['Ismaning, Deutschland', 'Marbella, Spanien', 'Wien, Österreich', 'Dübendorf, Schweiz']);
    expect(document.title).toBe('Horizon Live 2027 – Live aus vier Studios');

    click(document.querySelector('.language-menu a[hreflang="es"]'));
    await advance(150);
    expect(cities()).toBe('Múnich · Marbella · Viena · Zúrich');
    expect(cards()).toEqual(['Ismaning, Alemania', 'Marbella, España', 'Viena, Austria', 'Dübendorf, Suiza']);
    expect(document.querySelector('.map-panel__address')!.textContent).toMatch(/, (Alemania|España|Austria|Suiza)$/);
    expect(document.title).toBe('Horizon Live 2027 – En directo desde cuatro estudios');
    expect(displayNames).not.toHaveBeenCalled();
    expect(listFormat).not.toHaveBeenCalled();
  });

  it('drops a ?lng= link from the address once another language is chosen', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('en'))),
    );
    renderApp({ language: 'de', chosen: true, path: '/impressum?lng=de' });
    click(document.querySelector('.language-menu a[hreflang="en"]'));
    await advance(150);
    expect(window.location.pathname + window.location.search).toBe('/impressum');
  });
});
