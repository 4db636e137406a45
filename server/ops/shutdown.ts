import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Readiness } from './health.ts';
import type { Logger } from './logger.ts';

/** How often a stopping server looks for connections that have become idle. */
const SWEEP_INTERVAL_MS = 100;
/**
 * A connection that has sent nothing for this long is not about to: it is closed. (Sooner, its
 * request may only be waiting for the server to read it.)
 */
const SILENT_CONNECTION_MS = 1000;
/** The longest the listener stays open after shutdown begins, for connections that keep coming. */
const MAX_ACCEPT_DRAIN_MS = 1000;

export interface ShutdownOptions {
  server: Server;
  readiness: Readiness;
  logger: Logger;
  /** How long in-flight requests may take before their connections are cut. */
  timeoutMs: number;
  exit: (code: number) => void;
}

/**
 * The graceful stop, started by the returned function: readiness fails, the server stops
 * accepting connections, requests in flight finish (their answers close their connections),
 * idle keep-alive connections are closed, and the process exits 0 once the last connection is
 * gone, or closes what is left and exits 1 after `timeoutMs`. A second call exits at once.
 */
export function gracefulShutdown({
  server,
  readiness,
  logger,
  timeoutMs,
  exit,
}: ShutdownOptions): (reason: string) => void {
  const connectedAt = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    connectedAt.set(socket, Date.now());
    socket.once('close', () => connectedAt.delete(socket));
  });

  // Node counts a connection that has not sent its first request as idle (since Node 26,
  // nodejs/node#63470), and one whose request still waits unread in the socket looks the same:
  // closeIdleConnections(), and server.close() which calls it, would reset it. So neither is
  // called while a connection has yet to be heard from; one silent for SILENT_CONNECTION_MS is
  // closed here instead. True while some connection is still to be heard from.
  const closeSilentConnections = () => {
    const silentSince = Date.now() - SILENT_CONNECTION_MS;
    let awaiting = false;
    for (const [socket, since] of connectedAt) {
      if (socket.bytesRead > 0) continue;
      if (since <= silentSince) socket.destroy();
      else awaiting = true;
    }
    return awaiting;
  };
  const closeUnusedConnections = () => {
    if (!closeSilentConnections()) server.closeIdleConnections();
  };

  let begun = false;
  return (reason) => {
    if (begun) {
      logger.warn({ reason }, 'stopping at once');
      exit(1);
      return;
    }
    begun = true;
    readiness.drain();
    logger.info({ reason, timeoutMs }, 'shutting down');

    // A connection whose answer was already under way when shutdown began turns idle only later.
    const sweep = setInterval(closeUnusedConnections, SWEEP_INTERVAL_MS);
    const deadline = setTimeout(() => {
      clearInterval(sweep);
      logger.warn({ openConnections: connectedAt.size }, 'shutdown timed out: closing the remaining connections');
      server.closeAllConnections();
      exit(1);
    }, timeoutMs);
    closeListenerOnceQueueIsEmpty(server, closeSilentConnections, logger, () => {
      clearInterval(sweep);
      clearTimeout(deadline);
      logger.info('stopped');
      exit(0);
    });
  };
}

/**
 * Closing the listener resets every connection the kernel has queued for it but Node has not
 * accepted yet, and a busy server accepts them only one or a few per turn of the event loop.
 * So the listener is closed after a whole turn that accepted nothing, once every connection has
 * been heard from (`closeSilentConnections` returns false), or at the latest after
 * MAX_ACCEPT_DRAIN_MS, should connections keep coming; then `onClosed` runs once the last
 * connection is gone.
 */
function closeListenerOnceQueueIsEmpty(
  server: Server,
  closeSilentConnections: () => boolean,
  logger: Logger,
  onClosed: () => void,
): void {
  let accepted = 0;
  const count = () => (accepted += 1);
  server.on('connection', count);
  const giveUpAt = Date.now() + MAX_ACCEPT_DRAIN_MS;
  let acceptedBefore = -1;
  const check = () => {
    const overdue = Date.now() >= giveUpAt;
    if (!overdue && accepted !== acceptedBefore) {
      acceptedBefore = accepted;
      setImmediate(check);
      return;
    }
    if (!overdue && closeSilentConnections()) {
      setTimeout(check, SWEEP_INTERVAL_MS);
      return;
    }
    server.off('connection', count);
    server.close(onClosed);
    logger.info('no longer accepting connections');
  };
  setImmediate(check);
}

/** What of `process` the crash handler needs, so a test can hand in its own. */
export interface CrashSource {
  on(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
}

/**
 * An uncaught error or an unhandled rejection (which Node raises as an uncaught error) leaves
 * the process in an unknown state: log it and exit non-zero, so the orchestrator starts a fresh one.
 */
export function exitOnUncaughtError(source: CrashSource, logger: Logger, exit: (code: number) => void): void {
  source.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught error: exiting');
    exit(1);
  });
}
