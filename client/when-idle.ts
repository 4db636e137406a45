/**
 * Runs `callback` in a task of its own once the main thread is idle, at most `timeoutMs` later
 * (soon after, where browsers cannot tell); returns its cancel. For work no visitor waits for,
 * kept out of the tasks that hydrate the page.
 */
export function whenIdle(callback: () => void, timeoutMs = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => callback(), { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(callback);
  return () => clearTimeout(id);
}
