// @vitest-environment happy-dom
import { act } from 'react';
import type { Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../helpers/render-client.tsx';

/** The pictures the hero has asked for, in order: the shipped content's four studios. */
const fetched = () => [...document.querySelectorAll<HTMLImageElement>('.hero__slide')].map((img) => img.alt || img.src);
const slideImages = () => [...document.querySelectorAll<HTMLImageElement>('.hero__slide')];
const label = () => document.querySelector('.hero__studio')!.textContent;
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const settle = (index: number, outcome: 'load' | 'error' = 'load') =>
  act(() => void slideImages()[index]!.dispatchEvent(new Event(outcome)));

function emulateMedia(matching: string | null) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matching !== null && query.includes(matching),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

/** Pictures still loading when React first sees them, as on a slow network. */
function picturesStillLoading() {
  vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(false);
}

let root: Root | undefined;
beforeEach(() => {
  vi.useFakeTimers();
  emulateMedia(null);
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the hero’s pictures', () => {
  it('the first with the page, the next once the shown one has loaded, one rotation ahead', async () => {
    picturesStillLoading();
    ({ root } = renderApp());
    expect(fetched()).toHaveLength(1);

    await advance(3000);
    expect(fetched()).toHaveLength(1);
    await settle(0);
    expect(fetched()).toHaveLength(2);

    await advance(1200); // the first rotation: Marbella shows, its picture still loading
    expect(label()).toBe('Studio Marbella');
    expect(fetched()).toHaveLength(2);
    await settle(1);
    expect(fetched()).toHaveLength(3);
    await advance(4000);
    await settle(2);
    expect(fetched()).toHaveLength(4);
  });

  it('a picture that fails counts as settled: the next is asked for', async () => {
    picturesStillLoading();
    ({ root } = renderApp());
    await settle(0, 'error');
    expect(fetched()).toHaveLength(2);
  });

  it('a picture loaded before the page hydrated counts as loaded', () => {
    ({ root } = renderApp());
    expect(fetched()).toHaveLength(2);
  });

  it('the shown slide is asked for when the carousel has moved past a picture still loading, and only it', async () => {
    picturesStillLoading();
    ({ root } = renderApp());
    await advance(4200);
    expect(label()).toBe('Studio Marbella');
    expect(fetched()).toHaveLength(2);
    await advance(4000);
    expect(label()).toBe('Studio Wien');
    expect(fetched()).toHaveLength(3);
    expect(slideImages()[2]!.classList.contains('is-active')).toBe(true);
  });

  it('with no picture for the shown slide, the next is asked for at once', () => {
    picturesStillLoading();
    ({ root } = renderApp({
      heroSlides: [
        { image: null, studio: 'Studio Wien' },
        { image: '/images/hero/zurich-1600.jpg', studio: 'Studio Zürich' },
      ],
    }));
    expect(fetched()).toEqual([expect.stringContaining('/images/hero/zurich-1600.jpg')]);
  });

  it.each([
    ['Save-Data', () => vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } })],
    ['prefers-reduced-data', () => emulateMedia('prefers-reduced-data: reduce')],
  ])('a visitor asking to spare data (%s) gets the first only, while the studios still rotate', async (_, ask) => {
    ask();
    ({ root } = renderApp());
    await settle(0);
    for (const studio of ['Studio Marbella', 'Studio Wien', 'Studio Zürich', 'Studio München']) {
      await advance(4200);
      expect(label()).toBe(studio);
      expect(fetched()).toHaveLength(1);
    }
  });
});

describe('the logo', () => {
  it('a picture the server made smaller than the page’s 72 px is shown at the size it was given', () => {
    picturesStillLoading();
    ({ root } = renderApp({ logoUrl: '/images/photos/BBBB-o64.png', logoSize: { width: 48, height: 32 } }));
    const logo = document.querySelector<HTMLImageElement>('img.logo')!;
    expect(logo.className).toBe('logo logo--sized');
    expect([logo.getAttribute('width'), logo.getAttribute('height')]).toEqual(['48', '32']);
  });

  it('any other is 72 px high, by the stylesheet', () => {
    picturesStillLoading();
    ({ root } = renderApp({ logoUrl: '/images/photos/BBBB-o144.png' }));
    expect(document.querySelector('img.logo')!.className).toBe('logo');
  });
});
