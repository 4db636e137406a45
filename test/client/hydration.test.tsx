// @vitest-environment happy-dom
import { act } from 'react';
import type { Root } from 'react-dom/client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { boot } from '../../client/boot.tsx';
import { click, dictionary, jsonResponse } from '../helpers/render-client.tsx';
import { startServer, type RunningServer } from '../helpers/server-process.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The HTML comes from the built server in its own process, as a browser would get it.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

let root: Root | undefined;
beforeEach(() => {
  localStorage.clear();
  document.cookie = 'selectedLanguage=; Max-Age=0; Path=/';
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.unstubAllGlobals();
});

/** Loads the server's HTML into the test document, as a browser would before scripts run. */
async function loadServerPage(path: string, cookie?: string) {
  // Node's own HTTP client: the test window's fetch would apply the browser's CORS rules.
  const res = await request(server.url)
    .get(path)
    .set(cookie ? { Cookie: cookie } : {});
  const parsed = new DOMParser().parseFromString(res.text, 'text/html');
  document.documentElement.lang = parsed.documentElement.lang;
  document.head.innerHTML = parsed.head.innerHTML;
  document.body.innerHTML = parsed.body.innerHTML;
  window.history.replaceState(null, '', path);
  // The test window never loads images; let them count as loaded, as in a browser.
  vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
  vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(240);
  return res;
}

describe('hydrating the server HTML', () => {
  // The setup file fails any test that logs: a hydration mismatch is logged by React and by boot().
  it.each([
    ['/', undefined],
    ['/', 'selectedLanguage=en'],
    ['/impressum', 'selectedLanguage=es'],
    ['/no-such-page', 'selectedLanguage=de'],
  ])('takes over %s (%s) without a mismatch', async (path, cookie) => {
    await loadServerPage(path, cookie);
    if (path === '/no-such-page') vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(Math, 'random').mockReturnValue(0); // the picker's random studio is then the first, as rendered
    const before = document.getElementById('root')!.textContent;
    await act(async () => {
      root = boot(document);
    });
    expect(document.getElementById('root')!.textContent).toBe(before);
  });

  it('then picks a random studio for the map, after hydration', async () => {
    await loadServerPage('/', 'selectedLanguage=de');
    expect(document.querySelector('.map-panel__map')!.getAttribute('title')).toBe('Studio München Location');
    vi.spyOn(Math, 'random').mockReturnValue(0.6);
    await act(async () => {
      root = boot(document);
    });
    expect(document.querySelector('.map-panel__map')!.getAttribute('title')).toBe('Studio Wien Location');
    expect(document.querySelector<HTMLSelectElement>('#studio-select')!.value).toBe('vienna');
  });

  it('brings the overlay to life', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('en'))),
    );
    await loadServerPage('/');
    await act(async () => {
      root = boot(document);
    });
    click(document.querySelector('[role="dialog"] a[hreflang="en"]'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe('Horizon Live 2027 – Live from four studios');
  });
});

describe('the browser entry', () => {
  it('throws "Failed to find the root element" when the page has no root', () => {
    document.body.innerHTML = '<main>no root here</main>';
    expect(() => boot(document)).toThrow('Failed to find the root element');
  });
});
