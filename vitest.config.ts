import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  // The build constant client code reads (client/build-constants.d.ts): a test runs development code.
  define: { BUILD_MODE: JSON.stringify('development') },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Each of these has a command and a config of its own that starts what it needs.
    exclude: ['test/browser/**', 'test/edge/**', 'test/db/**', 'test/container/**'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    restoreMocks: true,
    // Two files per core: most of the suite's time is spent waiting on the processes, sockets and
    // timers its files start, and one file per core left a core idle half the time (199 s against
    // 101 s on two cores; docs/contributing.md, "How long each suite takes").
    maxWorkers: '200%',
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
