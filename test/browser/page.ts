import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';

export interface WatchedPage {
  page: Page;
  /** Console errors and warnings, with the address of the script or frame that logged them. */
  console: { type: string; text: string; url: string }[];
  uncaught: Error[];
  /** Content-Security-Policy violations reported in the page. */
  cspViolations(): Promise<{ directive: string; blocked: string }[]>;
}

/**
 * A new page that records what a visitor's console would show: errors and warnings,
 * uncaught exceptions and CSP violations (collected from the first moment of each document).
 */
export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = [];
    (window as unknown as { __cspViolations: typeof seen }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI }),
    );
  });
  const consoleLog: WatchedPage['console'] = [];
  const uncaught: Error[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      consoleLog.push({ type: message.type(), text: message.text(), url: message.location().url });
    }
  });
  page.on('pageerror', (error) => uncaught.push(error));
  return {
    page,
    console: consoleLog,
    uncaught,
    cspViolations: () =>
      page.evaluate(
        () => (window as unknown as { __cspViolations: { directive: string; blocked: string }[] }).__cspViolations,
      ),
  };
}

/** Chromium reports the page's own 404 status as an error; on the 404 page that is the point. */
export function isNotFoundStatus(entry: { text: string; url: string }, pageUrl: string): boolean {
  return entry.url === pageUrl && entry.text.includes('status of 404');
}

/**
 * Failures of third-party frames that cannot load on a machine without network (the video
 * and map embeds); everything else the console shows counts.
 */
export function isOfflineThirdPartyFailure(entry: { text: string; url: string }): boolean {
  const thirdParty = /https:\/\/(www\.)?(youtube-nocookie\.com|youtube\.com|google\.com|gstatic\.com)/;
  return thirdParty.test(entry.url) || (thirdParty.test(entry.text) && /net::ERR_/.test(entry.text));
}

/**
 * How late the page's own timers run: a probe in the page asks for a 10 ms timeout over and
 * over and keeps the worst delay beyond it. On a busy machine every timer of the page is that
 * late too, so a timing assertion widens its tolerance by it and keeps its meaning: it fails
 * when the page asked for the wrong delay, not when the machine was slow.
 */
export async function watchTimerLateness(page: Page): Promise<{ reset(): Promise<void>; worstMs(): Promise<number> }> {
  await page.addInitScript(() => {
    const probe = { worstMs: 0 };
    (window as unknown as { __timerLateness: typeof probe }).__timerLateness = probe;
    const schedule = () => {
      const due = performance.now() + 10;
      setTimeout(() => {
        probe.worstMs = Math.max(probe.worstMs, performance.now() - due);
        schedule();
      }, 10);
    };
    schedule();
  });
  return {
    reset: () =>
      page.evaluate(
        () => void ((window as unknown as { __timerLateness: { worstMs: number } }).__timerLateness.worstMs = 0),
      ),
    worstMs: () =>
      page.evaluate(() => (window as unknown as { __timerLateness: { worstMs: number } }).__timerLateness.worstMs),
  };
}

/**
 * Waits until the parts of the page the tests use are hydrated: the sections below the hero
 * hydrate on their own, later, and on a busy machine much later. React marks each element it has
 * taken over with a `__reactFiber…` property.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const hydrated = (selector: string) => {
      const element = document.querySelector(selector);
      return !element || Object.keys(element).some((key) => key.startsWith('__reactFiber'));
    };
    const heroReady = document.querySelector('.hero__slide:nth-child(2)') || !document.querySelector('.hero');
    return heroReady && hydrated('#studio-select') && hydrated('.footer') && hydrated('.studio-card');
  });
}
