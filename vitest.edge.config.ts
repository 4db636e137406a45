import { defineConfig } from 'vitest/config';

/**
 * The edge suite: deploy/'s Varnish and nginx configurations run in front of the built server.
 * It needs varnishd and nginx installed; a cache that cannot start fails it.
 */
export default defineConfig({
  test: {
    include: ['test/edge/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/edge/global-setup.ts'],
    // Every file side by side, each with its own server and cache: together they use under a quarter
    // of a core, most of their time waiting for caches' lifetimes to pass.
    maxWorkers: 8,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
