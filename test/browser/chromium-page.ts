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
 * For the journeys that drive Playwright's Chromium directly (its fake clock): a new page that
 * records what a visitor's console would show: errors and warnings,
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
