import { treeMemoryKb } from './memory.ts';

/** Resident memory at one moment of a long run. */
export interface RssSample {
  /** Minutes since sampling began (the soak: the server's start, a few seconds before its load). */
  minute: number;
  rssMb: number;
}

/**
 * Samples the resident memory of a process and those it started (treeMemoryKb) every
 * `everyMs` until stopped; `peek` gives the latest in MB, `stop` all of them.
 */
export function sampleRss(pid: number, everyMs: number): { peek: () => number; stop: () => RssSample[] } {
  const started = performance.now();
  const samples: RssSample[] = [];
  const sample = () => {
    try {
      samples.push({ minute: (performance.now() - started) / 60_000, rssMb: treeMemoryKb(pid).residentKb / 1024 });
    } catch {
      // The process is gone: the samples so far stand.
    }
  };
  sample();
  // Never what keeps the process alive: a soak that failed ends without stopping it.
  const timer = setInterval(sample, everyMs).unref();
  return {
    peek: () => samples.at(-1)?.rssMb ?? 0,
    stop: () => {
      clearInterval(timer);
      sample();
      return samples;
    },
  };
}

/**
 * How fast resident memory grows between two minutes of the run, in MB a minute: the
 * least-squares line through the samples in that window, so that one garbage collection's
 * dip or a burst's peak at either end does not decide it.
 */
export function slopeMbPerMinute(samples: RssSample[], fromMinute: number, toMinute: number): number {
  const window = samples.filter((s) => s.minute >= fromMinute && s.minute <= toMinute);
  if (window.length < 2) throw new Error(`fewer than two memory samples between minute ${fromMinute} and ${toMinute}`);
  const meanMinute = window.reduce((sum, s) => sum + s.minute, 0) / window.length;
  const meanRss = window.reduce((sum, s) => sum + s.rssMb, 0) / window.length;
  let covariance = 0;
  let variance = 0;
  for (const s of window) {
    covariance += (s.minute - meanMinute) * (s.rssMb - meanRss);
    variance += (s.minute - meanMinute) ** 2;
  }
  return covariance / variance;
}

export interface SoakTargets {
  /** The window the slope is measured over: after the first minute's warm-up, to the end. */
  fromMinute: number;
  toMinute: number;
  /** Growth allowed over that window, in MB a minute. */
  slopeMbPerMinute: number;
  /** The manifest's memory limit in MiB, and the share of it the peak may take. */
  limitMib: number;
  peakShare: number;
}

export interface SoakVerdict {
  slopeMbPerMinute: number;
  slopeHeld: boolean;
  peakMb: number;
  /** When the peak came, in minutes since sampling began. */
  peakMinute: number;
  /** Peak as a percentage of the limit. */
  peakPercentOfLimit: number;
  peakHeld: boolean;
}

/** Judges a soak's samples against its targets. */
export function judgeSoak(samples: RssSample[], targets: SoakTargets): SoakVerdict {
  const slope = slopeMbPerMinute(samples, targets.fromMinute, targets.toMinute);
  const peak = samples.reduce((highest, s) => (s.rssMb > highest.rssMb ? s : highest));
  const peakMb = peak.rssMb;
  return {
    slopeMbPerMinute: Math.round(slope * 100) / 100,
    slopeHeld: slope < targets.slopeMbPerMinute,
    peakMb: Math.round(peakMb * 10) / 10,
    peakMinute: Math.round(peak.minute * 10) / 10,
    peakPercentOfLimit: Math.round((peakMb / targets.limitMib) * 1000) / 10,
    peakHeld: peakMb < targets.limitMib * targets.peakShare,
  };
}

/** The resident memory at the end of each whole minute (the last sample before it), for the report. */
export function minuteMarks(samples: RssSample[]): { minute: number; rssMb: number }[] {
  const marks: { minute: number; rssMb: number }[] = [];
  const last = Math.floor(samples.at(-1)?.minute ?? 0);
  for (let minute = 1; minute <= last; minute++) {
    const before = samples.filter((s) => s.minute <= minute).at(-1);
    if (before) marks.push({ minute, rssMb: Math.round(before.rssMb * 10) / 10 });
  }
  return marks;
}
