import { Worker } from 'node:worker_threads';
import type { LogOutput } from './log-output.ts';

/** The longest an exit waits for buffered log lines to reach the reader. */
export const LOG_SETTLE_MS = 500;
/** How long after an exit is due the watchdog ends the process, should it still be there. */
export const WATCHDOG_GRACE_MS = 900;

// A thread of its own, so that it runs even while the main thread is held: by a synchronous
// call that does not return, or a loop that never yields.
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let due = Infinity;
let timer;
const arm = (at) => {
  if (at >= due) return;
  due = at;
  clearTimeout(timer);
  timer = setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), Math.max(0, at - Date.now()));
};
parentPort.on('message', arm);
arm(workerData.at);
`;

export interface ProcessExit {
  /** Exits with `code` once the log is written, or after LOG_SETTLE_MS at the latest. */
  exit(code: number): void;
  /**
   * Makes sure the process is gone WATCHDOG_GRACE_MS after `withinMs` from now, whatever the
   * main thread is doing then: past it, the watchdog kills the process (SIGKILL, status 137).
   */
  exitWithin(withinMs: number): void;
}

export function processExit(output: LogOutput): ProcessExit {
  let watchdog: Worker | undefined;
  const exitWithin = (withinMs: number) => {
    const at = Date.now() + withinMs + WATCHDOG_GRACE_MS;
    if (watchdog) {
      watchdog.postMessage(at);
      return;
    }
    watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { pid: process.pid, at } });
    watchdog.unref();
  };
  return {
    exit(code) {
      exitWithin(LOG_SETTLE_MS);
      void output.settle(LOG_SETTLE_MS).then(() => process.exit(code));
    },
    exitWithin,
  };
}
