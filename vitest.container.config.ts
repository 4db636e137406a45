import { defineConfig } from 'vitest/config';

/**
 * The container suite: the unchanged Dockerfile built by Podman and the image run as operators
 * run it, read-only. It needs podman installed (.ci/run installs it); a missing engine fails it.
 */
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/container/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 900_000,
    // One engine, one image: the files run one after another.
    fileParallelism: false,
  },
});
