import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

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
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The browser, for tests that give each visitor a fresh context (cookies, storage) of its own. */
export function launchBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

/** A fresh browser profile; close() removes it. */
export async function openBrowser(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  assertChromium();
  const profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    ...options,
  });
  // Chromium may still be writing into the profile as it closes: retry rather than fail the suite.
  context.on('close', () => rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
  return context;
}
