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

/** How many lines about the server itself may wait for the reader; they are few (start, stop, a crash). */
const MAX_WAITING_URGENT_LINES = 64;
/** How often urgent lines the reader did not take are tried again, as sonic-boom retries its own. */
const URGENT_RETRY_MS = 100;

/**
 * Log lines to a file descriptor without ever holding up the server. The lines of one turn of
 * the event loop are written together once it ends, straight to the descriptor in writes of at
 * most PIPE_BUF of whole lines, which a non-blocking pipe takes whole or refuses at once: under
 * load that is one write for dozens of requests, made on the event loop without a round trip
 * through libuv's thread pool. What the reader does not take (EAGAIN), a line too long for one
 * such write, and every line after them wait in sonic-boom's backlog, written asynchronously
 * from a buffer of at most `bufferBytes`, retried every 100 ms while the reader does not take
 * them; what does not fit is dropped (its 'drop' event) and counted. Once the reader is gone for
 * good (EPIPE, or any other write error), every line is dropped and counted.
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
  /** This turn's lines, in order, written once the turn ends. */
  let turnLines: string[] = [];
  let urgentRetry: NodeJS.Timeout | undefined;
  const idleWaiters = new Set<() => void>();
  let recovered: (dropped: number) => void = () => {};

  const drop = (lines = 1) => {
    dropped += lines;
    droppedUnreported += lines;
  };
  const idle = () => broken || (backlogEmpty && urgent.length === 0 && turnLines.length === 0);
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

  sonic.on('drop', () => drop());
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
    if (broken) return drop();
    const droppedBefore = dropped;
    sonic.write(bytes as unknown as string);
    if (dropped === droppedBefore) backlogEmpty = false;
  };

  /**
   * Writes this turn's lines: straight to the descriptor while nothing waits before them, in
   * writes of whole lines of at most PIPE_BUF; from the first the reader does not take (or too
   * long for one write) on, in order through the backlog.
   */
  const writeTurnLines = () => {
    const lines = turnLines;
    turnLines = [];
    let next = 0;
    while (next < lines.length && backlogEmpty && urgent.length === 0 && !broken) {
      let chunk = '';
      let chunkBytes = 0;
      let end = next;
      for (; end < lines.length; end++) {
        const bytes = Buffer.byteLength(lines[end]!);
        if (chunkBytes + bytes > ATOMIC_WRITE_BYTES) break;
        chunk += lines[end];
        chunkBytes += bytes;
      }
      if (end === next) break; // a line longer than one write: sonic-boom writes it in parts
      let written: number;
      try {
        written = writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') breakDown();
        break;
      }
      next = end;
      // Not a pipe (a socket, say), which may take part of a write: the rest goes first in the backlog.
      if (written < chunkBytes) toBacklog(Buffer.from(chunk).subarray(written));
    }
    for (; next < lines.length; next++) toBacklog(Buffer.from(lines[next]!));
    wakeIfIdle();
  };

  const write = (line: string) => {
    if (broken) return drop();
    if (turnLines.push(line) === 1) setImmediate(writeTurnLines);
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
