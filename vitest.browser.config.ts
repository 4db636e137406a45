import { defineConfig } from 'vitest/config';

/**
 * The browser suite: one real engine (BROWSER_ENGINE) against the built server, one file at a
 * time. `npm run test:browser` runs it once per engine, in two such processes side by side: the
 * journeys that wait for the real clock, and the others, a few files at a time
 * (scripts/harness/suite-parts.ts).
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/browser/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
