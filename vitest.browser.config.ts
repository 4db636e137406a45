import { defineConfig } from 'vitest/config';

/**
 * Journeys that need what only Playwright's Chromium offers (the DevTools protocol, its fake
 * clock, media emulation beside a real clock): they run in the Chromium pass alone. The README
 * names them.
 */
export const CHROMIUM_ONLY = [
  'test/browser/interactions.test.ts',
  'test/browser/carousel.test.ts',
  'test/browser/language.test.ts',
  'test/browser/languages.test.ts',
  'test/browser/accessibility.test.ts',
  'test/browser/language-button.test.ts',
  'test/browser/stored-language.test.ts',
];

/** The browser suite: one real engine (BROWSER_ENGINE) against the built server, one file at a time. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    exclude: (process.env.BROWSER_ENGINE ?? 'chromium') === 'chromium' ? [] : CHROMIUM_ONLY,
    globalSetup: ['test/browser/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
