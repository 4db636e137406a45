import { readdirSync, readFileSync } from 'node:fs';

export interface PeakMemory {
  /** Highest resident memory seen, in MB. */
  rssMb: number;
  /**
   * Highest anonymous part of it (heap, stacks, buffers), in MB. The rest is mostly the node
   * executable's code pages: clean, shared and given back by the kernel under pressure.
   */
  anonMb: number;
}

/** Samples a process's resident memory every 50 ms (from /proc) until stopped; returns the peaks. */
export function watchPeakRss(pid: number): () => PeakMemory {
  let peakRssKb = 0;
  let peakAnonKb = 0;
  const sample = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      peakRssKb = Math.max(peakRssKb, Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
      peakAnonKb = Math.max(peakAnonKb, Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
    } catch {
      // The process is gone; the peaks so far stand.
    }
  };
  sample();
  const timer = setInterval(sample, 50);
  const mb = (kb: number) => Math.round(kb / 102.4) / 10;
  return () => {
    clearInterval(timer);
    sample();
    return { rssMb: mb(peakRssKb), anonMb: mb(peakAnonKb) };
  };
}

/**
 * What a process and the processes it started hold in memory, in kB, as a container's limit
 * counts them: its resident memory, and what each descendant holds alone (its private pages;
 * the pages it shares, such as Node's own code, are counted in the first). The server's
 * descendant is its photo encoder, while it runs.
 */
export function treeResidentKb(pid: number): number {
  const kbIn = (file: string, name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))?.[1] ?? 0);
  const childrenOf = (of: number): number[] =>
    readdirSync(`/proc/${of}/task`).flatMap((task) => {
      try {
        return readFileSync(`/proc/${of}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return []; // the thread has ended
      }
    });
  const descendantsKb = (of: number): number =>
    childrenOf(of).reduce((sum, child) => {
      try {
        const rollup = `/proc/${child}/smaps_rollup`;
        return sum + kbIn(rollup, 'Private_Clean') + kbIn(rollup, 'Private_Dirty') + descendantsKb(child);
      } catch {
        return sum; // the child has ended
      }
    }, 0);
  return kbIn(`/proc/${pid}/status`, 'VmRSS') + descendantsKb(pid);
}
