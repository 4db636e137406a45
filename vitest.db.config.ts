import { defineConfig } from 'vitest/config';

/**
 * The database suite: supabase/migrations/ applied to Debian's PostgreSQL, started by the suite
 * as a child process. It needs the postgresql package installed; without it the suite fails.
 */
export default defineConfig({
  test: {
    include: ['test/db/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
