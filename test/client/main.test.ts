import { afterEach, expect, it, vi } from 'vitest';

vi.mock('../../client/boot.tsx', () => ({ boot: vi.fn() }));

afterEach(() => {
  vi.useRealTimers();
});

it('the app module starts the app in a task after its own evaluation, not during it', async () => {
  vi.useFakeTimers();
  const { boot } = await import('../../client/boot.tsx');
  await import('../../client/main.tsx');
  expect(boot).not.toHaveBeenCalled();
  vi.runAllTimers();
  expect(boot).toHaveBeenCalledTimes(1);
});
