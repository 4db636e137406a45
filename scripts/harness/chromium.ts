import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, the browser visitors run, for Lighthouse; CHROMIUM_PATH may name another. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Debian's build of Chromium's headless shell (the same Blink and V8 as its Chromium, without the
 * browser's own windows and UI), for the journeys and the benchmarks' visits, as Playwright runs
 * headless Chromium; CHROMIUM_HEADLESS_PATH may name another. Chromium's own headless mode, on a
 * busy machine, now and then stopped giving a page frames for good after a script scrolled it
 * (scripts still answered, requestAnimationFrame never fired again, a screenshot waited for ever),
 * and took two thirds longer over the browser suite.
 */
export const CHROMIUM_HEADLESS_PATH = process.env.CHROMIUM_HEADLESS_PATH || '/usr/bin/chromium-headless-shell';

/** Throws one line saying how to get the browser when it is not at `executable`. */
function assertInstalled(executable: string, debianPackage: string, variable: string): void {
  try {
    accessSync(executable, constants.X_OK);
  } catch {
    throw new Error(
      `${debianPackage} not found at ${executable}: install it with "apt-get install -y ${debianPackage}" or set ${variable}.`,
    );
  }
}

/** Throws one line saying how to get Chromium, for Lighthouse, when it is not there. */
export const assertChromium = () => assertInstalled(CHROMIUM_PATH, 'chromium', 'CHROMIUM_PATH');

/** Throws one line saying how to get Chromium's headless shell, for the journeys, when it is not there. */
export const assertHeadlessChromium = () =>
  assertInstalled(CHROMIUM_HEADLESS_PATH, 'chromium-headless-shell', 'CHROMIUM_HEADLESS_PATH');

// Without the background-networking flags Chromium keeps dialling out on a machine with no network.
// No --disable-gpu: composited in software, a busy machine's page stopped getting frames after a
// scroll more often still; Chromium's default compositing here is SwiftShader's.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The headless browser, for tests that give each visitor a fresh context (cookies, storage) of its
 * own. Its profile is a temporary folder of Playwright's, which removes it only once the browser's
 * processes have exited, retrying while Chromium's helpers still write to it; a folder of our
 * own, removed when the context closed, raced them (ENOTEMPTY).
 */
export function launchBrowser(): Promise<Browser> {
  assertHeadlessChromium();
  return chromium.launch({ executablePath: CHROMIUM_HEADLESS_PATH, headless: true, args: CHROMIUM_FLAGS });
}
