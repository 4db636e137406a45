import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from '../../client/when-idle.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('work for an idle moment', () => {
  it("waits for the browser's idle callback, at most the bound, and can be cancelled", () => {
    const asked: { callback: () => void; timeout?: number }[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void, options?: { timeout?: number }) => {
      asked.push({ callback, timeout: options?.timeout });
      return asked.length;
    });
    vi.stubGlobal('cancelIdleCallback', (id: number) => cancelled.push(id));
    const work = vi.fn();
    const cancel = whenIdle(work, 500);
    expect(asked.map(({ timeout }) => timeout)).toEqual([500]);
    expect(work).not.toHaveBeenCalled();
    asked[0]!.callback();
    expect(work).toHaveBeenCalledTimes(1);
    cancel();
    expect(cancelled).toEqual([1]);
  });

  it('runs in a task of its own where browsers cannot tell idle moments', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const work = vi.fn();
    whenIdle(work);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(work).toHaveBeenCalledTimes(1);
    const cancelledWork = vi.fn();
    whenIdle(cancelledWork)();
    vi.advanceTimersByTime(10);
    expect(cancelledWork).not.toHaveBeenCalled();
  });
});
