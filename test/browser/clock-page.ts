import type { Page } from 'playwright-core';
import { pageHasHydrated } from './hydrated.ts';

/** What a page on Playwright's fake clock showed when a journey's wait gave up. */
export interface ClockPageState {
  /** The hero's phase, as data-event-phase says. */
  phase: string | null;
  countdown: string | null;
  /** Whether React has taken over the page (./hydrated.ts): the app module ran and hydrated it. */
  hydrated: boolean;
  /** When the browser reported the first contentful paint (ms after the document's start), which the starter waits for before it fetches the app; null for none. */
  firstPaintMs: number | null;
  /** The page's clock, in ms from `from`. */
  clockMs: number;
}

/**
 * Records the first contentful paint from the document's first moment: the fake clock replaces
 * `performance`, whose entries it then hides, while a PerformanceObserver still gets them.
 */
export async function recordFirstPaint(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __firstPaintMs: number | null };
    w.__firstPaintMs = null;
    new PerformanceObserver((list) => {
      const paint = list.getEntriesByName('first-contentful-paint')[0];
      if (paint) w.__firstPaintMs = Math.round(paint.startTime);
    }).observe({ type: 'paint', buffered: true });
  });
}

async function clockPageState(page: Page, from: number): Promise<ClockPageState> {
  const shown = await page.evaluate((from) => {
    const hero = document.querySelector('.hero');
    return {
      phase: hero?.getAttribute('data-event-phase') ?? null,
      countdown: document.querySelector('[data-testid="countdown"]')?.textContent ?? null,
      firstPaintMs: (window as unknown as { __firstPaintMs: number | null }).__firstPaintMs,
      clockMs: Date.now() - from,
    };
  }, from);
  return { ...shown, hydrated: await page.evaluate(pageHasHydrated) };
}

/**
 * Waits for `wait`; when it gives up, throws an error whose first line says what the journey
 * waited for and what the page showed then (the line a CI log's summary keeps), the wait's own
 * error as its cause.
 */
export async function waitOnClockPage(page: Page, what: string, from: number, wait: () => Promise<unknown>) {
  try {
    await wait();
  } catch (error) {
    const state = await clockPageState(page, from).catch((reason: unknown) => `unreadable (${String(reason)})`);
    throw new Error(`waited in vain for ${what}; the page showed ${JSON.stringify(state)}`, { cause: error });
  }
}
