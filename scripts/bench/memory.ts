import { readFileSync } from 'node:fs';

/**
 * Samples a process's resident memory every 50 ms (from /proc) until stopped;
 * returns the highest value seen, in MB.
 */
export function watchPeakRss(pid: number): () => number {
  let peakKb = 0;
  const sample = () => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peakKb = Math.max(peakKb, Number(match[1]));
    } catch {
      // The process is gone; the peak so far stands.
    }
  };
  sample();
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    sample();
    return Math.round(peakKb / 102.4) / 10;
  };
}
