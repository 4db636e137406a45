import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const UNIT_FILES = ['test/**/*.test.{ts,tsx}'];
/** Each of these has a command and a config of its own that starts what it needs. */
const OTHER_SUITES = ['test/browser/**', 'test/edge/**', 'test/db/**', 'test/container/**'];
/** The files that mock a module (vi.mock), which applies only where that module is not yet loaded. */
export const OWN_MODULE_CACHE = [
  'test/client/main.test.ts',
  'test/ops/log-output.test.ts',
  'test/pages/errors.test.ts',
  'test/pages/rehearsal.test.ts',
];

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  // The build constant client code reads (client/build-constants.d.ts): a test runs development code.
  define: { BUILD_MODE: JSON.stringify('development') },
  test: {
    // The unit suite's files share one module cache per worker, so that a module is imported once
    // per worker, not once per file; test/setup.ts clears what a file leaves behind. A file whose
    // module mocks (vi.mock) need a cache of their own runs apart.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT_FILES, exclude: [...OTHER_SUITES, ...OWN_MODULE_CACHE], isolate: false },
      },
      { extends: true, test: { name: 'unit, own module cache', include: OWN_MODULE_CACHE } },
    ],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    restoreMocks: true,
    // Three files per core: most of the suite's time is spent waiting on the processes, sockets and
    // timers its files start (on two cores, one file per core took 199 s, two 122 s, three with the
    // shared module cache 85 to 92 s; docs/contributing.md, "How long each suite takes"). A number:
    // vitest gave the projects two workers for '300%'.
    maxWorkers: 3 * availableParallelism(),
    // A green run prints a dot per test and the totals; a failing test prints its error and
    // everything it logged, so a real failure never scrolls by among passing tests' output.
    reporters: ['dot'],
    silent: 'passed-only',
    testTimeout: 20_000,
    environmentOptions: {
      happyDOM: {
        url: 'http://localhost:3000/',
        settings: {
          disableJavaScriptFileLoading: true,
          disableCSSFileLoading: true,
          disableIframePageLoading: true,
          handleDisabledFileLoadingAsSuccess: true,
        },
      },
    },
  },
});
