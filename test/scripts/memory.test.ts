import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { treeMemoryKb, watchPeakRss } from '../../scripts/bench/memory.ts';

const HELD_KB = 64 * 1024;

/** A process of this one's that has written 64 MiB, page by page, until killed. */
async function childHolding64Mib() {
  const child = spawn(
    process.execPath,
    ['-e', 'globalThis.held = Buffer.alloc(64 * 1024 * 1024, 1); console.log("held"); setTimeout(() => {}, 60_000)'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await once(child.stdout!, 'data');
  return child;
}

// The container's limit counts the server's photo encoder too, a process of its own.
describe("the benchmarks' memory of the server", () => {
  it('counts what a process it started holds alone, and its anonymous part', async () => {
    const alone = treeMemoryKb(process.pid);
    const child = await childHolding64Mib();
    try {
      const withChild = treeMemoryKb(process.pid);
      // Its 64 MiB and its own heap; not Node's code, which this process maps too.
      for (const kind of ['residentKb', 'anonymousKb'] as const) {
        expect(withChild[kind] - alone[kind]).toBeGreaterThan(HELD_KB);
        expect(withChild[kind] - alone[kind]).toBeLessThan(HELD_KB + 40 * 1024);
      }
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });

  it("takes the peak of npm run bench's runs with it", async () => {
    const alone = treeMemoryKb(process.pid);
    const stop = watchPeakRss(process.pid);
    const child = await childHolding64Mib();
    // Sampled every 50 ms: held through a few samples, then gone before the peak is asked for.
    await setTimeout(200);
    child.kill();
    await once(child, 'exit');
    const peak = stop();
    expect(peak.rssMb * 1024 - alone.residentKb).toBeGreaterThan(HELD_KB);
    expect(peak.anonMb * 1024 - alone.anonymousKb).toBeGreaterThan(HELD_KB);
  });
});
