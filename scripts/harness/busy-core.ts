import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The kernel's clock ticks per second, in which /proc/<pid>/stat counts a process's CPU time. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface BusyCore {
  pid: number;
  /** The CPU time the process has used so far, in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * A process that keeps one core busy until stopped: the other work a shared machine has going on
 * beside the browser suite. It is killed by its id when stopped, and with this process.
 */
export function startBusyCore(): BusyCore {
  const child = spawn(process.execPath, ['--eval', 'for (;;) {}'], { stdio: 'ignore' });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', kill);
      resolve();
    }),
  );
  let lastCpuSeconds = 0;
  return {
    pid: child.pid!,
    cpuSeconds() {
      try {
        // After the command's name in parentheses: state is field 3, utime and stime fields 14 and 15.
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        lastCpuSeconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
      } catch {
        // Gone: what it had used when last read.
      }
      return lastCpuSeconds;
    },
    async stop() {
      this.cpuSeconds();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
