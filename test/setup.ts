import nodeConsole from 'node:console';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { removeTempDirs } from './helpers/temp-dirs.ts';

/**
 * Any console.error or console.warn a test did not ask for fails it, so a React
 * warning (a hydration mismatch, a missing key) can never pass unnoticed.
 *
 * Two consoles are watched: the test's own, and Node's, which the happy-dom test
 * window was given before Vitest replaced the global one (the window reports its
 * own errors there, and they would print raw, outside any test's output).
 */
const allowed = new Set<'error' | 'warn'>();
const calls: Record<'error' | 'warn', unknown[][]> = { error: [], warn: [] };

/** The test window loads no frames, as it loads no images: its report of a frame it skipped is expected. */
function isSkippedFrame(args: unknown[]): boolean {
  const [first] = args;
  return (
    first instanceof Error &&
    first.name === 'NotSupportedError' &&
    first.message.endsWith('Iframe page loading is disabled.')
  );
}

beforeEach(() => {
  allowed.clear();
  calls.error = [];
  calls.warn = [];
  for (const target of new Set([console, nodeConsole])) {
    for (const level of ['error', 'warn'] as const) {
      vi.spyOn(target, level).mockImplementation((...args: unknown[]) => {
        if (!isSkippedFrame(args)) calls[level].push(args);
      });
    }
  }
});

afterEach(() => {
  for (const level of ['error', 'warn'] as const) {
    if (!allowed.has(level) && calls[level].length > 0) {
      const first = calls[level][0]!.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ');
      throw new Error(`Unexpected console.${level} (${calls[level].length}x): ${first}`);
    }
  }
});

/** Lets the current test log at this level and returns what it logged. */
export function consoleCalls(level: 'error' | 'warn'): unknown[][] {
  allowed.add(level);
  return calls[level];
}

// Run before each test file, whose end this marks: whatever a file left behind goes with it, so
// that the next one in the same worker (the unit suite shares its module cache between files)
// starts as if it were the first.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  removeTempDirs();
});
