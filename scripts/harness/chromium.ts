import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium unless CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Throws one line saying how to get Chromium when it is not there. */
export function assertChromium(): void {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium" or set CHROMIUM_PATH.`,
    );
  }
}

// Without the background-networking flags Chromium keeps dialling out on a machine with no network.
// No --disable-gpu: with it Chromium composites in software, and on a busy machine that path now
// and then stops giving a page frames for good once a script scrolls it (visible and focused,
// requestAnimationFrame never fires again, a screenshot waits forever); its default compositing
// here (SwiftShader) does not.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser, for tests that give each visitor a fresh context (cookies, storage) of its own.
 * Its profile is a temporary folder of Playwright's, which removes it only once the browser's
 * processes have exited, retrying while Chromium's helpers still write to it; a folder of our
 * own, removed when the context closed, raced them (ENOTEMPTY).
 */
export function launchBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}
