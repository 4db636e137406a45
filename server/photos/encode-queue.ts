/** The queue holds no more than this many waiting tasks; another is refused at once. */
export class QueueFullError extends Error {
  override name = 'QueueFullError';
  constructor(limit: number) {
    super(`${limit} photos are already waiting to be made`);
  }
}

/**
 * Runs tasks one at a time, in the order they came, with at most `maxWaiting` waiting: photos
 * are made in the background while pages are served, never two at once, so making them takes
 * one core at most and the memory of one photo.
 */
export class EncodeQueue {
  private running: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly maxWaiting: number) {}

  /** Tasks waiting or running. */
  get size(): number {
    return this.waiting;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.waiting >= this.maxWaiting) return Promise.reject(new QueueFullError(this.maxWaiting));
    this.waiting += 1;
    const result = this.running.then(task).finally(() => {
      this.waiting -= 1;
    });
    // The next task starts once this one has settled, whether it succeeded or not.
    this.running = result.catch(() => {});
    return result;
  }
}
