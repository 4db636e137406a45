import type { Browser, BrowserContext, BrowserContextOptions, ConsoleMessage, Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { keepEvidenceOfFailure, type Witness } from './evidence.ts';

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

/**
 * A watched page as a failure's evidence reads it, from now on: its addresses as steps (each
 * navigation, and each change of the page's own history; Playwright's trace of the context, where
 * started, holds every call the journey made), its requests with their statuses, its console.
 */
export function pageWitness(watched: WatchedPage): Witness {
  const { page } = watched;
  const openedAt = performance.now();
  const atMs = () => Math.round(performance.now() - openedAt);
  const steps: { atMs: number; step: string }[] = [];
  const requests: { method: string; url: string; destination: string; status: number | string }[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) steps.push({ atMs: atMs(), step: `at ${frame.url()}` });
  });
  page.on(
    'requestfinished',
    (request) =>
      void request.response().then(
        (response) =>
          requests.push({
            method: request.method(),
            url: request.url(),
            destination: request.resourceType(),
            status: response?.status() ?? 'no answer',
          }),
        // The journey closed the page before the answer was read: its record ends with the page.
        () => {},
      ),
  );
  page.on('requestfailed', (request) =>
    requests.push({
      method: request.method(),
      url: request.url(),
      destination: request.resourceType(),
      status: request.failure()?.errorText ?? 'failed',
    }),
  );
  return {
    steps,
    requests,
    evaluate: (fn) => page.evaluate(fn),
    screenshot: () => page.screenshot(),
    problems: async () => [
      ...watched.console.map(({ type, text, url }) => ({ kind: type, text, url })),
      ...watched.uncaught.map((error) => ({ kind: 'uncaught', text: String(error.stack ?? error), url: '' })),
    ],
    keepTrace: (file) => page.context().tracing.stop({ path: file }),
  };
}

export interface WatchedPages {
  /** A watched page in a new context of its own (`options`), traced, and closed after the test. */
  open(browser: Browser, options?: BrowserContextOptions): Promise<WatchedPage>;
}

/**
 * The Playwright pages of one test file's journeys: each in a context of its own whose calls
 * Playwright traces (without screenshots or snapshots, which would slow the journey); when a
 * test fails, its pages' evidence is kept as the driver's visitors' is (./evidence.ts), the
 * trace beside it. Every page is closed after its test.
 */
export function setUpWatchedPages(): WatchedPages {
  const open: { context: BrowserContext; witness: Witness }[] = [];
  afterEach(async ({ task }) => {
    const pages = open.splice(0);
    await keepEvidenceOfFailure(
      task,
      'chromium',
      pages.map(({ witness }) => witness),
    );
    await Promise.all(pages.map(({ context }) => context.close()));
  }, 60_000);
  return {
    async open(browser, options = {}) {
      const context = await browser.newContext(options);
      await context.tracing.start({ screenshots: false, snapshots: false });
      const watched = await watchedPage(context);
      open.push({ context, witness: pageWitness(watched) });
      return watched;
    },
  };
}
