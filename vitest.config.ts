import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  // The build constant client code reads (client/build-constants.d.ts): a test runs development code.
  define: { BUILD_MODE: JSON.stringify('development') },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/browser/**', 'test/edge/**'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/global-setup.ts'],
    restoreMocks: true,
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
