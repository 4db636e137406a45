import { readdirSync, readFileSync } from 'node:fs';

export interface PeakMemory {
  /** Highest resident memory seen, in MB: the process's and its descendants' (treeMemoryKb). */
  rssMb: number;
  /**
   * Highest anonymous part of it (heap, stacks, buffers), in MB. The rest is mostly the node
   * executable's code pages: clean, shared and given back by the kernel under pressure.
   */
  anonMb: number;
}

/** Samples a process's memory, with the processes it started, every 50 ms until stopped; returns the peaks. */
export function watchPeakRss(pid: number): () => PeakMemory {
  let peakRssKb = 0;
  let peakAnonKb = 0;
  const sample = () => {
    try {
      const { residentKb, anonymousKb } = treeMemoryKb(pid);
      peakRssKb = Math.max(peakRssKb, residentKb);
      peakAnonKb = Math.max(peakAnonKb, anonymousKb);
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
 * descendant is its photo encoder, while it runs. `anonymousKb` is the anonymous part of each.
 */
export function treeMemoryKb(pid: number): { residentKb: number; anonymousKb: number } {
  const kbIn = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const childrenOf = (of: number): number[] =>
    readdirSync(`/proc/${of}/task`).flatMap((task) => {
      try {
        return readFileSync(`/proc/${of}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return []; // the thread has ended
      }
    });
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const total = { residentKb: kbIn(status, 'VmRSS'), anonymousKb: kbIn(status, 'RssAnon') };
  const addDescendants = (of: number) => {
    for (const child of childrenOf(of)) {
      try {
        const rollup = readFileSync(`/proc/${child}/smaps_rollup`, 'utf8');
        total.residentKb += kbIn(rollup, 'Private_Clean') + kbIn(rollup, 'Private_Dirty');
        total.anonymousKb += kbIn(rollup, 'Anonymous');
        addDescendants(child);
      } catch {
        // the child has ended
      }
    }
  };
  addDescendants(pid);
  return total;
}
