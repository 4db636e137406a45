import { spawn, type ChildProcess } from 'node:child_process';
import type { LogOutput } from './log-output.ts';

/** The longest an exit waits for buffered log lines to reach the reader. */
export const LOG_SETTLE_MS = 500;
/**
 * How long after an exit is due the watchdog ends the process, should it still be there: past
 * LOG_SETTLE_MS, and a quarter of a second short of the second the shutdown promises, which a
 * loaded machine's scheduling takes from (900 ms left 16 ms too few with six test files at once).
 */
export const WATCHDOG_GRACE_MS = 750;

// A process of its own, not a thread: process.exit() stops the worker threads first and then
// tears down Node's own threads (libuv's pool, V8's platform), and that teardown can wait for
// ever (on Node 26.10.0 too: a pool thread held in an open() of a FIFO nobody writes to; in V8's
// platform, nodejs/node#54918 and #64274).
// It is told deadlines (epoch ms) over its IPC channel and ends when the channel closes: its
// server has exited. It kills only its own parent, so never a process that took the pid over.
const WATCHDOG_SOURCE = `
const parent = Number(process.argv[1]);
let due = Infinity;
let timer;
process.on('message', (at) => {
  if (!(at < due)) return;
  due = at;
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (process.ppid === parent) process.kill(parent, 'SIGKILL');
    process.exit(0);
  }, Math.max(0, at - Date.now()));
});
process.on('disconnect', () => process.exit(0));
`;

export interface ProcessExit {
  /** Exits with `code` once the log is written, or after LOG_SETTLE_MS at the latest. */
  exit(code: number): void;
  /**
   * Makes sure the process is gone WATCHDOG_GRACE_MS after `withinMs` from now, whatever the
   * main thread or Node's own exit is doing then: past it, the watchdog kills the process
   * (SIGKILL, status 137).
   */
  exitWithin(withinMs: number): void;
}

/** `onWatchdogError` hears of a watchdog that could not be started or told. */
export function processExit(output: LogOutput, onWatchdogError: (error: Error) => void): ProcessExit {
  let watchdog: ChildProcess | undefined;
  const exitWithin = (withinMs: number) => {
    watchdog ??= startWatchdog(onWatchdogError);
    watchdog.send(Date.now() + withinMs + WATCHDOG_GRACE_MS);
  };
  return {
    exit(code) {
      exitWithin(LOG_SETTLE_MS);
      void output.settle(LOG_SETTLE_MS).then(() => process.exit(code));
    },
    exitWithin,
  };
}

function startWatchdog(onError: (error: Error) => void): ChildProcess {
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, String(process.pid)], {
    // Nothing of the server's environment: NODE_OPTIONS could preload what the server preloads.
    env: {},
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  watchdog.on('error', onError);
  // Neither the watchdog nor its channel keeps the server running.
  watchdog.unref();
  watchdog.channel?.unref();
  return watchdog;
}
