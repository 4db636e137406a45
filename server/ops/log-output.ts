import { writeSync } from 'node:fs';
import sonicBoom from 'sonic-boom';

/**
 * The most a single write to a pipe may carry and still be atomic (POSIX PIPE_BUF on Linux):
 * such a write to a non-blocking pipe goes out whole or not at all, so a line written ahead of
 * the backlog never lands inside another line.
 */
const ATOMIC_WRITE_BYTES = 4096;

export interface LogOutputOptions {
  /** The file descriptor the lines go to; stdout unless a test hands in another. */
  fd: number;
  /** The most bytes kept waiting while the reader is slow; a line that does not fit is dropped. */
  bufferBytes: number;
}

export interface LogOutput {
  /** For the access log and the app's lines: buffered, dropped when the buffer is full. */
  write(line: string): void;
  /** For lines about the server itself: written ahead of any backlog when the reader takes it. */
  writeUrgent(line: string): void;
  /** Lines dropped since start. */
  droppedLines(): number;
  /** Told, once a backlog with dropped lines has been written, how many were dropped since it was last told. */
  onRecovered(listener: (dropped: number) => void): void;
  /** Resolves once everything buffered is written, or after `ms` at the latest. */
  settle(ms: number): Promise<void>;
}

/**
 * Log lines to a file descriptor without ever holding up the server: sonic-boom writes them
 * asynchronously (on libuv's thread pool) from a buffer of at most `bufferBytes`, retrying
 * every 100 ms while the reader does not take them (EAGAIN), and drops what does not fit (its
 * 'drop' event), which is counted. Once the reader is gone for good (EPIPE, or any other write
 * error), every line is dropped and counted. Nothing here writes synchronously without a bound:
 * the one synchronous write, of an urgent line, goes to a non-blocking descriptor and is tried
 * once.
 */
export function createLogOutput({ fd, bufferBytes }: LogOutputOptions): LogOutput {
  const sonic = new sonicBoom.SonicBoom({
    fd,
    sync: false,
    minLength: 0,
    maxLength: bufferBytes,
    maxWrite: ATOMIC_WRITE_BYTES,
  });
  let dropped = 0;
  let droppedUnreported = 0;
  let broken = false;
  /** Nothing is buffered or being written. */
  let idle = true;
  const idleWaiters = new Set<() => void>();
  let recovered: (dropped: number) => void = () => {};

  const drop = () => {
    dropped += 1;
    droppedUnreported += 1;
  };
  const becomeIdle = () => {
    idle = true;
    for (const wake of idleWaiters) wake();
    idleWaiters.clear();
  };
  // Writing works again once the backlog is written: then one line reports what was lost.
  const reportDrops = () => {
    if (droppedUnreported === 0 || broken) return;
    const count = droppedUnreported;
    droppedUnreported = 0;
    recovered(count);
  };

  sonic.on('drop', drop);
  sonic.on('drain', () => {
    becomeIdle();
    reportDrops();
  });
  sonic.on('error', () => {
    // The reader has gone (EPIPE) or the descriptor is unusable: nothing written here again can arrive.
    broken = true;
    becomeIdle();
  });

  const write = (line: string) => {
    if (broken) return drop();
    const droppedBefore = dropped;
    sonic.write(line);
    if (dropped === droppedBefore) idle = false;
  };

  return {
    write,
    writeUrgent(line) {
      if (broken) return drop();
      if (!idle && Buffer.byteLength(line) <= ATOMIC_WRITE_BYTES) {
        // A backlog is waiting: try this line ahead of it, once.
        try {
          writeSync(fd, line);
          return;
        } catch {
          // EAGAIN (the reader takes nothing now) or the reader is gone: queue it like any other.
        }
      }
      // Not dropped for lack of room: lines about the server itself are few.
      const { maxLength } = sonic as unknown as { maxLength: number };
      (sonic as unknown as { maxLength: number }).maxLength = 0;
      write(line);
      (sonic as unknown as { maxLength: number }).maxLength = maxLength;
    },
    droppedLines: () => dropped,
    onRecovered(listener) {
      recovered = listener;
    },
    settle(ms) {
      if (idle) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          idleWaiters.delete(done);
          resolve();
        }
        idleWaiters.add(done);
      });
    },
  };
}
