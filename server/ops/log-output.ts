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

/** The lines in bytes handed to the backlog: each line ends with a newline. */
function linesIn(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1;
  return lines;
}

/** How many lines about the server itself may wait for the reader; they are few (start, stop, a crash). */
const MAX_WAITING_URGENT_LINES = 64;
/** How often urgent lines the reader did not take are tried again, as sonic-boom retries its own. */
const URGENT_RETRY_MS = 100;

/**
 * Log lines to a file descriptor without ever holding up the server. Lines are gathered into
 * writes of whole lines of at most PIPE_BUF, each made straight to the descriptor once it is full
 * or the turn of the event loop ends, whichever comes first; a non-blocking pipe takes such a
 * write whole or refuses it at once. Under load that is one write for a score of requests, made
 * on the event loop without a round trip through libuv's thread pool, and never more than one
 * write's worth waiting. What the reader does not take (EAGAIN), a line too long for one such
 * write, and every line after them wait in sonic-boom's backlog, written asynchronously from a
 * buffer of at most `bufferBytes`, retried every 100 ms while the reader does not take them; what
 * does not fit is dropped (its 'drop' event) and counted. Once the reader is gone for good
 * (EPIPE, or any other write error), every line is dropped and counted.
 *
 * Urgent lines (about the server itself) go ahead of that backlog: each is written at once
 * with one synchronous write, which a non-blocking descriptor either takes whole (it is no
 * longer than PIPE_BUF) or refuses at once; refused, it waits in a short queue of its own that
 * is tried again as soon as the reader takes anything, before the backlog's next chunk.
 * Nothing here writes synchronously without a bound.
 */
export function createLogOutput({ fd, bufferBytes }: LogOutputOptions): LogOutput {
  const sonic = new sonicBoom.SonicBoom({
    fd,
    sync: false,
    minLength: 0,
    maxLength: bufferBytes,
    maxWrite: ATOMIC_WRITE_BYTES,
    // Bytes, so that what a write left over is kept exactly, even within a character.
    contentMode: 'buffer',
  });
  let dropped = 0;
  let droppedUnreported = 0;
  let broken = false;
  /** sonic-boom has nothing buffered or being written. */
  let backlogEmpty = true;
  const urgent: string[] = [];
  /** Whole lines for the next write, at most ATOMIC_WRITE_BYTES of them. */
  let pending = '';
  let pendingBytes = 0;
  let endOfTurnScheduled = false;
  let urgentRetry: NodeJS.Timeout | undefined;
  const idleWaiters = new Set<() => void>();
  let recovered: (dropped: number) => void = () => {};

  const drop = (lines = 1) => {
    dropped += lines;
    droppedUnreported += lines;
  };
  const idle = () => broken || (backlogEmpty && urgent.length === 0 && pendingBytes === 0);
  const wakeIfIdle = () => {
    if (!idle()) return;
    for (const wake of idleWaiters) wake();
    idleWaiters.clear();
  };
  const breakDown = () => {
    // The reader has gone (EPIPE) or the descriptor is unusable: nothing written here again can arrive.
    broken = true;
    drop(urgent.splice(0).length);
    clearTimeout(urgentRetry);
    wakeIfIdle();
  };

  /** Writes waiting urgent lines while the reader takes them; the rest are retried shortly. */
  const writeUrgentLines = () => {
    clearTimeout(urgentRetry);
    urgentRetry = undefined;
    while (urgent.length > 0 && !broken) {
      try {
        writeSync(fd, urgent[0]!);
        urgent.shift();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return breakDown();
        urgentRetry = setTimeout(writeUrgentLines, URGENT_RETRY_MS).unref();
        return;
      }
    }
    wakeIfIdle();
  };

  // Writing works again once the backlog is written: then one line reports what was lost.
  const reportDrops = () => {
    if (droppedUnreported === 0 || broken) return;
    const count = droppedUnreported;
    droppedUnreported = 0;
    recovered(count);
  };

  sonic.on('drop', (bytes: Buffer) => drop(linesIn(bytes)));
  // The reader has just taken a chunk, and sonic-boom has not started the next: urgent lines first.
  sonic.on('write', () => {
    if (urgent.length > 0) writeUrgentLines();
  });
  sonic.on('drain', () => {
    backlogEmpty = true;
    wakeIfIdle();
    reportDrops();
  });
  sonic.on('error', breakDown);

  /** Adds bytes to sonic-boom's backlog, unless they do not fit; in order after what waits there. */
  const toBacklog = (bytes: Buffer) => {
    if (broken) return drop(linesIn(bytes));
    const droppedBefore = dropped;
    sonic.write(bytes as unknown as string);
    if (dropped === droppedBefore) backlogEmpty = false;
  };

  /** Writes the pending lines straight to the descriptor while nothing waits before them; else through the backlog. */
  const writePending = () => {
    if (pendingBytes === 0) return;
    const text = pending;
    const bytes = pendingBytes;
    pending = '';
    pendingBytes = 0;
    if (!backlogEmpty || urgent.length > 0 || broken) return toBacklog(Buffer.from(text));
    let written: number;
    try {
      written = writeSync(fd, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') breakDown();
      return toBacklog(Buffer.from(text));
    }
    // Not a pipe (a socket, say), which may take part of a write: the rest goes first in the backlog.
    if (written < bytes) toBacklog(Buffer.from(text).subarray(written));
  };

  const endTurn = () => {
    endOfTurnScheduled = false;
    writePending();
    wakeIfIdle();
  };

  const write = (line: string) => {
    if (broken) return drop();
    const bytes = Buffer.byteLength(line);
    if (pendingBytes + bytes > ATOMIC_WRITE_BYTES) writePending();
    // Too long for one write: sonic-boom writes it in parts, after what came before it.
    if (bytes > ATOMIC_WRITE_BYTES) return toBacklog(Buffer.from(line));
    pending += line;
    pendingBytes += bytes;
    if (!endOfTurnScheduled) {
      endOfTurnScheduled = true;
      setImmediate(endTurn);
    }
  };

  return {
    write,
    writeUrgent(line) {
      if (broken) return drop();
      if (Buffer.byteLength(line) > ATOMIC_WRITE_BYTES) {
        // Too long to be written whole in one go: it takes its place in the backlog, without being
        // dropped for lack of room (lines about the server itself are few).
        const { maxLength } = sonic as unknown as { maxLength: number };
        (sonic as unknown as { maxLength: number }).maxLength = 0;
        toBacklog(Buffer.from(line));
        (sonic as unknown as { maxLength: number }).maxLength = maxLength;
        return;
      }
      if (urgent.length >= MAX_WAITING_URGENT_LINES) return drop();
      urgent.push(line);
      if (urgent.length === 1) writeUrgentLines();
    },
    droppedLines: () => dropped,
    onRecovered(listener) {
      recovered = listener;
    },
    settle(ms) {
      if (idle()) return Promise.resolve();
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
