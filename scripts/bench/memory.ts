import { readFileSync } from 'node:fs';

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
