// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, renderApp } from '../helpers/render-client.tsx';

const label = () => document.querySelector('.hero__studio')!;
const activeSlide = () => document.querySelector('.hero__slide.is-active')!.getAttribute('src');
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

function emulateReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('reduce'),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

beforeEach(() => {
  vi.useFakeTimers();
  emulateReducedMotion(false);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the hero carousel', () => {
  it('starts at the first slide and moves every 4 s, fading the label for 200 ms, and wraps', async () => {
    renderApp();
    expect(label().textContent).toBe('Studio München');
    expect(activeSlide()).toBe('/images/hero/munich-1600.jpg');

    await advance(3999);
    expect(label().classList.contains('is-fading')).toBe(false);
    await advance(1);
    expect(label().classList.contains('is-fading')).toBe(true);
    expect(label().textContent).toBe('Studio München');
    await advance(199);
    expect(label().textContent).toBe('Studio München');
    await advance(1);
    expect(label().textContent).toBe('Studio Marbella');
    expect(label().classList.contains('is-fading')).toBe(false);
    expect(activeSlide()).toBe('/images/hero/marbella-1600.jpg');

    await advance(4000);
    expect(label().textContent).toBe('Studio Wien');
    await advance(4000);
    expect(label().textContent).toBe('Studio Zürich');
    await advance(4000);
    expect(label().textContent).toBe('Studio München');
  });

  it('stops and resumes with the pause control', async () => {
    renderApp();
    const pause = document.querySelector<HTMLButtonElement>('.hero__pause')!;
    expect(pause.getAttribute('aria-pressed')).toBe('false');
    click(pause);
    expect(pause.getAttribute('aria-pressed')).toBe('true');
    await advance(12_000);
    expect(label().textContent).toBe('Studio München');
    click(pause);
    await advance(4200);
    expect(label().textContent).toBe('Studio Marbella');
  });

  it('pauses while the tab is hidden', async () => {
    renderApp();
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await advance(12_000);
    expect(label().textContent).toBe('Studio München');
    visibility.mockReturnValue('visible');
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    await advance(4200);
    expect(label().textContent).toBe('Studio Marbella');
  });

  it('keeps rotating without the fade when reduced motion is asked for', async () => {
    emulateReducedMotion(true);
    renderApp();
    await advance(4000);
    expect(label().textContent).toBe('Studio Marbella');
    expect(label().classList.contains('is-fading')).toBe(false);
  });

  it('shows "Loading studios..." while slides are unknown and no label when there are none', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    ); // the request for the slides stays unanswered
    renderApp({ heroSlides: null });
    expect(label().textContent).toBe('Studios werden geladen...');
    expect(document.querySelector('.hero__slides--empty')).not.toBeNull();
    renderApp({ heroSlides: [] });
    expect(document.querySelector('.hero__studio')).toBeNull();
    expect(document.querySelector('.hero__pause')).toBeNull();
  });
});
