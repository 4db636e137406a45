import { writeSync } from 'node:fs';

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

/** The lines in a piece of the log: each line ends with a newline. */
function linesIn(text: Buffer | string): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

/** How many lines about the server itself may wait for the reader; they are few (start, stop, a crash). */
const MAX_WAITING_URGENT_LINES = 64;
/** How often what waits is tried again while no new line comes to try it. */
const RETRY_MS = 100;

/**
 * Log lines to a file descriptor without ever holding up the server: whole lines gathered into
 * writes of at most PIPE_BUF, each made straight to the non-blocking descriptor once full or at
 * the end of the event loop's turn; what the reader does not take waits in a backlog of at most
 * `bufferBytes`, written as fast as the reader takes it, and a line that does not fit is dropped
 * and counted. Urgent lines (about the server itself) go ahead of that backlog.
 *
 * Not pino.destination(): on 2026-12-03 (Node 26.10.0, sonic-boom 4.2.1, `maxLength` 1 MiB), a
 * server loaded by `wrk -t2 -c1000 -d4s` with its stdout read by `cat` dropped 49,091–62,252 lines
 * of 64,072–72,665 requests' in nine fresh processes, this writer 0 in six (docs/speed.md, "The log").
 */
export function createLogOutput({ fd, bufferBytes }: LogOutputOptions): LogOutput {
  let dropped = 0;
  let droppedUnreported = 0;
  let broken = false;
  const urgent: string[] = [];
  /** What the reader has not taken yet, in order: pieces of whole lines, the first perhaps begun. */
  const backlog: Buffer[] = [];
  let backlogBytes = 0;
  /** The first piece of the backlog is partly written: nothing may go before the rest of it. */
  let backlogBegun = false;
  /** Whole lines for the next write, at most ATOMIC_WRITE_BYTES of them. */
  let pending = '';
  let pendingBytes = 0;
  let endOfTurnScheduled = false;
  /** The reader refused a write since the turn began: what waits is tried again when it ends, not before. */
  let refusedThisTurn = false;
  let retry: NodeJS.Timeout | undefined;
  const idleWaiters = new Set<() => void>();
  let recovered: (dropped: number) => void = () => {};

  const drop = (lines: number) => {
    dropped += lines;
    droppedUnreported += lines;
  };
  const waiting = () => urgent.length > 0 || backlog.length > 0;
  const idle = () => broken || (!waiting() && pendingBytes === 0);
  const wakeIfIdle = () => {
    if (!idle()) return;
    for (const wake of idleWaiters) wake();
    idleWaiters.clear();
  };

  const breakDown = () => {
    // The reader has gone (EPIPE) or the descriptor is unusable: nothing written here again can arrive.
    broken = true;
    drop(urgent.length + backlog.reduce((lines, piece) => lines + linesIn(piece), 0) + linesIn(pending));
    urgent.length = 0;
    backlog.length = 0;
    backlogBytes = 0;
    pending = '';
    pendingBytes = 0;
    clearTimeout(retry);
    wakeIfIdle();
  };

  /** One write that never waits: the bytes the descriptor took, or null if it took none now or is broken. */
  const tryWrite = (data: string | Buffer): number | null => {
    try {
      return typeof data === 'string' ? writeSync(fd, data) : writeSync(fd, data);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') refusedThisTurn = true;
      else breakDown();
      return null;
    }
  };

  /** Adds a piece to the end of the backlog, unless it does not fit. */
  const toBacklog = (piece: Buffer, { bounded = true } = {}) => {
    if (bounded && backlogBytes + piece.length > bufferBytes) return drop(linesIn(piece));
    backlog.push(piece);
    backlogBytes += piece.length;
  };

  /** Once a backlog with dropped lines is written: one line says how many were lost. */
  const reportDrops = () => {
    if (droppedUnreported === 0 || broken) return;
    const count = droppedUnreported;
    droppedUnreported = 0;
    recovered(count);
  };

  /** Tries what waits again shortly, in case no line comes to try it sooner. */
  const retryLater = () => {
    retry ??= setTimeout(() => {
      retry = undefined;
      refusedThisTurn = false;
      writeWaiting();
    }, RETRY_MS).unref();
  };

  /** Writes what waits, urgent lines first, for as long as the reader takes it; tries the rest again later. */
  const writeWaiting = () => {
    while (!broken) {
      if (urgent.length > 0 && !backlogBegun) {
        const line = urgent[0]!;
        const took = tryWrite(line);
        if (took === null) break;
        urgent.shift();
        const bytes = Buffer.byteLength(line);
        if (took < bytes) {
          backlog.unshift(Buffer.from(line).subarray(took));
          backlogBytes += bytes - took;
          backlogBegun = true;
        }
        continue;
      }
      const piece = backlog[0];
      if (!piece) break;
      const took = tryWrite(piece);
      if (took === null) break;
      backlogBytes -= took;
      backlogBegun = took < piece.length;
      if (backlogBegun) backlog[0] = piece.subarray(took);
      else backlog.shift();
    }
    if (broken) return;
    if (waiting()) return retryLater();
    reportDrops();
    wakeIfIdle();
  };

  /** Writes what waits, then the pending lines straight to the descriptor if nothing waits before them; else they wait too. */
  const writePending = () => {
    // What waits goes first, as much of it as the reader takes now: it may make room for these
    // lines. A refused write costs a thrown error: one a turn is enough.
    if (waiting() && !refusedThisTurn) writeWaiting();
    if (pendingBytes === 0) return;
    const text = pending;
    const bytes = pendingBytes;
    pending = '';
    pendingBytes = 0;
    if (waiting()) return toBacklog(Buffer.from(text));
    const took = tryWrite(text);
    if (took === bytes) return;
    if (broken) return drop(linesIn(text));
    // Refused, or (not a pipe: a socket, say) partly taken: the rest goes first.
    toBacklog(Buffer.from(text).subarray(took ?? 0));
    backlogBegun = (took ?? 0) > 0;
    retryLater();
  };

  const endTurn = () => {
    endOfTurnScheduled = false;
    refusedThisTurn = false;
    writePending();
    wakeIfIdle();
  };

  const write = (line: string) => {
    if (broken) return drop(1);
    const bytes = Buffer.byteLength(line);
    if (pendingBytes + bytes > ATOMIC_WRITE_BYTES) writePending();
    if (bytes > ATOMIC_WRITE_BYTES) {
      // Too long for one atomic write: it waits its turn in the backlog, written in as many parts as it takes.
      toBacklog(Buffer.from(line));
    } else {
      pending += line;
      pendingBytes += bytes;
    }
    if (!endOfTurnScheduled) {
      endOfTurnScheduled = true;
      setImmediate(endTurn);
    }
  };

  return {
    write,
    writeUrgent(line) {
      if (broken) return drop(1);
      if (Buffer.byteLength(line) > ATOMIC_WRITE_BYTES) {
        // Too long to be written whole in one go: it takes its place after what waits, without
        // being dropped for lack of room (lines about the server itself are few).
        writePending();
        toBacklog(Buffer.from(line), { bounded: false });
        return writeWaiting();
      }
      if (urgent.length >= MAX_WAITING_URGENT_LINES) return drop(1);
      urgent.push(line);
      writeWaiting();
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
