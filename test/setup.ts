import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Any console.error or console.warn a test did not ask for fails it, so a React
 * warning (a hydration mismatch, a missing key) can never pass unnoticed.
 */
const allowed = new Set<'error' | 'warn'>();
const calls: Record<'error' | 'warn', unknown[][]> = { error: [], warn: [] };

beforeEach(() => {
  allowed.clear();
  calls.error = [];
  calls.warn = [];
  for (const level of ['error', 'warn'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void calls[level].push(args));
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
