import { describe, expect, it } from 'vitest';
import { EncodeQueue, QueueFullError } from '../../server/photos/encode-queue.ts';

/** A task the test finishes by hand, recording when it started. */
function heldTask(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    task: () => {
      log.push(`start ${name}`);
      return done;
    },
    finish: () => finish(name),
    fail: () => fail(new Error(`${name} failed`)),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EncodeQueue', () => {
  it('runs one task at a time, in order, the next once the last has settled, failed or not', async () => {
    const log: string[] = [];
    const queue = new EncodeQueue(10);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => heldTask(log, name));
    const results = [queue.run(a!.task), queue.run(b!.task), queue.run(c!.task)];
    await tick();
    expect(log).toEqual(['start a']);
    a!.fail();
    await expect(results[0]).rejects.toThrow('a failed');
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    b!.finish();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'start c']);
    c!.finish();
    expect(await Promise.all(results.slice(1))).toEqual(['b', 'c']);
    expect(queue.size).toBe(0);
  });

  it('refuses a task at once when as many as it may hold are waiting', async () => {
    const log: string[] = [];
    const queue = new EncodeQueue(2);
    const [a, b] = ['a', 'b'].map((name) => heldTask(log, name));
    const held = [queue.run(a!.task), queue.run(b!.task)];
    await expect(queue.run(async () => 'c')).rejects.toThrow(QueueFullError);
    a!.finish();
    b!.finish();
    await Promise.all(held);
    await expect(queue.run(async () => 'd')).resolves.toBe('d');
  });
});
