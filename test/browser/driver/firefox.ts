import { accessSync, constants } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { aimAt, aimWhenStill, type Aim } from './aim.ts';
import { problemProbe, recordedProblems } from './probe.ts';
import type { VisitorLine } from './line.ts';
import type { BrowserSettings, BrowserTab, Engine, Problem, Viewport } from './types.ts';

/** Debian's Firefox ESR unless FIREFOX_PATH names another. */
export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

export function assertFirefox(): void {
  try {
    accessSync(FIREFOX_PATH, constants.X_OK);
  } catch {
    throw new Error(
      `Firefox not found at ${FIREFOX_PATH}: install it with "apt-get install -y firefox-esr" or set FIREFOX_PATH.`,
    );
  }
}

type LaunchKey = Required<Pick<BrowserSettings, 'javaScript' | 'reducedMotion' | 'deviceScaleFactor'>> & {
  timeZone: string;
};

/**
 * Firefox through puppeteer-core over WebDriver BiDi. The BiDi of Firefox ESR has no commands
 * for scripting off, reduced motion or the time zone, so those (and the pixel ratio, below) are
 * the browser's own preferences and environment: one browser per combination, launched when first needed, and a
 * private browsing context of it for each visitor. Scripts that run before the page's own come
 * through the visitor's line: a preload script of puppeteer's makes Firefox report an error of
 * its own ("Permission denied to access property \"length\"") in every cross-origin frame.
 */
export async function launchFirefox(): Promise<Engine> {
  assertFirefox();
  const browsers = new Map<string, Promise<Browser>>();
  const browserFor = (key: LaunchKey) => {
    const id = JSON.stringify(key);
    if (!browsers.has(id)) {
      browsers.set(
        id,
        puppeteer.launch({
          browser: 'firefox',
          executablePath: FIREFOX_PATH,
          headless: true,
          // The tests' stand-in providers answer over https with a certificate of their own.
          acceptInsecureCerts: true,
          env: { ...process.env, ...(key.timeZone ? { TZ: key.timeZone } : {}) },
          extraPrefsFirefox: {
            'javascript.enabled': key.javaScript,
            // 1 = reduce, 0 = no preference, whatever the system says.
            'ui.prefersReducedMotion': key.reducedMotion ? 1 : 0,
            // BiDi's pixel ratio reaches the page, not the parser's early requests: a preload
            // would pick its picture for a ratio of 1. The browser's own ratio is the phone's.
            ...(key.deviceScaleFactor !== 1 ? { 'layout.css.devPixelsPerPx': String(key.deviceScaleFactor) } : {}),
          },
        }),
      );
    }
    return browsers.get(id)!;
  };
  const first = await browserFor({ javaScript: true, reducedMotion: false, timeZone: '', deviceScaleFactor: 1 });
  const version = (await first.version()).replace('firefox/', 'Firefox ');

  return {
    name: 'firefox',
    version,
    async open(
      line,
      { viewport, deviceScaleFactor = 1, javaScript = true, reducedMotion = false, timeZone = '', language },
    ) {
      const browser = await browserFor({ javaScript, reducedMotion, timeZone, deviceScaleFactor });
      const origin = line.origin;
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await setViewport(page, viewport ?? { width: 1280, height: 720 }, deviceScaleFactor);
      if (language)
        await context.setCookie({
          name: 'selectedLanguage',
          value: language,
          domain: new URL(origin).hostname,
          path: '/',
        });
      line.runFirst(problemProbe, false);
      const logged: Problem[] = [];
      page.on('console', (message) => {
        const kind = message.type();
        if (kind === 'error' || kind === 'warn') {
          logged.push({
            kind: kind === 'warn' ? 'warning' : 'error',
            text: message.text(),
            url: message.location().url ?? '',
          });
        }
      });
      page.on('pageerror', (error) =>
        logged.push({
          kind: 'uncaught',
          text: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          url: '',
        }),
      );

      const tab: BrowserTab = {
        goto: (path) => goto(page, line, origin + path),
        reload: async () => void (await page.reload()),
        back: () => back(page),
        evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => never, arg),
        async click(selector) {
          // Sections further up take their size once they come into view (content-visibility),
          // which moves what lies below them: aimed at until it holds still (./aim.ts).
          // A page without scripts gets no animation frames: measured 50 ms apart instead.
          const measure = async (scroll: boolean) => {
            if (!javaScript) await new Promise((resolve) => setTimeout(resolve, 50));
            return page.evaluate(aimAtFirstMatch(selector, scroll, javaScript)) as Promise<Aim>;
          };
          const at = await aimWhenStill(selector, measure);
          await page.mouse.click(at.x, at.y);
        },
        async press(selector, key) {
          if (selector) await page.evaluate((s) => document.querySelector<HTMLElement>(s)?.focus(), selector);
          await page.keyboard.press(key);
        },
        setViewport: (size) => setViewport(page, size, deviceScaleFactor),
        cookie: async (name) => (await context.cookies()).find((cookie) => cookie.name === name)?.value,
        addInitScript: async (fn, arg) => line.runFirst(fn, arg),
        problems: async () => [...logged, ...(javaScript ? await page.evaluate(recordedProblems) : [])],
        slowDownCpu: async () => false,
        askToSaveData: async () => false,
        show: () => page.bringToFront(),
        screenshot: async () => Buffer.from(await page.screenshot()),
        close: () => context.close(),
      };
      return tab;
    },
    async close() {
      await Promise.all([...browsers.values()].map(async (browser) => (await browser).close()));
    },
  };
}

/**
 * `aimAt` (./aim.ts) the first element the selector matches, as an expression for the page.
 * Puppeteer's own click and focus ask a realm of theirs first, which never answers when the
 * browser runs no scripts of the page; an expression of the test's runs there all the same.
 */
function aimAtFirstMatch(selector: string, scroll: boolean, afterFrames: boolean): string {
  const find = `document.querySelector(${JSON.stringify(selector)})`;
  const missing = JSON.stringify(`no element matches ${selector}`);
  return `(${aimAt.toString()})(${find} ?? (() => { throw new Error(${missing}); })(), ${scroll}, ${afterFrames})`;
}

/**
 * Puppeteer sets the screen's orientation with the size, a command Firefox ESR 140 does not
 * know; the size itself is set by a command of its own, sent alongside, which it does. That
 * failure ends the call before the size is applied, so the page is asked until it has it.
 */
async function setViewport(page: Page, { width, height }: Viewport, deviceScaleFactor: number): Promise<void> {
  await page.setViewport({ width, height, deviceScaleFactor }).catch((error: Error) => {
    if (!error.message.includes('unknown command emulation.setScreenOrientationOverride')) throw error;
  });
  const applied = () =>
    page.evaluate(([w, h]) => innerWidth === w && innerHeight === h, [width, height] as const).catch(() => false);
  for (const deadline = Date.now() + 10_000; !(await applied());) {
    if (Date.now() > deadline) throw new Error(`Firefox did not take the size ${width}×${height}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Opens an address in the tab as a link would, done once the new document has loaded (or, for
 * another fragment of the same document, once the address shows it); its status is the one the
 * line saw. Firefox ESR's own navigate command also listens to the frames of the page being left:
 * a video or map frame whose load fails or is cut as that page goes (offline, they all fail)
 * rejects the navigation with "Address rejected" or NS_BINDING_ABORTED while the new page loads
 * as it should. A navigation the page starts itself is not watched that way.
 */
async function goto(page: Page, line: VisitorLine, url: string): Promise<{ status: number }> {
  const asked = line.requests.length;
  await page.evaluate((target) => {
    const next = new URL(target, location.href);
    const withoutFragment = (href: string) => href.split('#')[0];
    const sameDocument = next.hash !== '' && withoutFragment(next.href) === withoutFragment(location.href);
    if (!sameDocument) (window as unknown as { __leaving?: boolean }).__leaving = true;
    location.assign(next.href);
  }, url);
  const arrived = () =>
    page
      .evaluate(
        (target) =>
          !(window as unknown as { __leaving?: boolean }).__leaving &&
          document.readyState === 'complete' &&
          location.href === new URL(target, location.href).href,
        url,
      )
      .catch(() => false);
  for (const deadline = Date.now() + 30_000; !(await arrived());) {
    if (Date.now() > deadline) throw new Error(`Firefox did not load ${url} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const loaded = line.requests.slice(asked).findLast((request) => request.destination === 'document');
  return { status: loaded?.status ?? line.latestDocumentStatus() ?? 0 };
}

/**
 * One step back in the tab's history, done when the page shows it: within the document (a
 * route the page's script pushed, an anchor) once its popstate has fired, otherwise once the
 * earlier document has loaded. Puppeteer's goBack waits for a new document even when the
 * step stays within the same one, and times out there.
 */
async function back(page: Page): Promise<void> {
  await page.evaluate(() => {
    const step = { done: false };
    (window as unknown as { __stepBack: typeof step }).__stepBack = step;
    addEventListener('popstate', () => (step.done = true), { once: true });
    history.back();
  });
  const shown = () =>
    page
      .evaluate(() => {
        const step = (window as unknown as { __stepBack?: { done: boolean } }).__stepBack;
        return step ? step.done : document.readyState === 'complete';
      })
      .catch(() => false);
  for (const deadline = Date.now() + 30_000; !(await shown());) {
    if (Date.now() > deadline) throw new Error('Firefox did not go back within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
