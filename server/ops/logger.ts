import pino, { type Logger } from 'pino';
import { createLogOutput, type LogOutput } from './log-output.ts';

export type { Logger };

export interface Logging {
  /** Requests and everything the app reports: dropped first when the log reader falls behind. */
  logger: Logger;
  /** Lines about the server itself (listening, shutting down, an uncaught error): tried ahead of any backlog. */
  processLogger: Logger;
  output: LogOutput;
}

export interface LoggingOptions {
  level: string;
  /** The most bytes of log lines kept waiting for a slow reader. */
  bufferBytes: number;
  /** Where the lines go: stdout unless a test says otherwise. */
  fd?: number;
}

/**
 * One JSON object per line on stdout; the level comes from LOG_LEVEL. Lines that cannot be
 * written within the buffer are dropped and counted, and one warning line says how many once
 * writing works again.
 */
export function createLogging({ level, bufferBytes, fd }: LoggingOptions): Logging {
  // Reading process.stdout.fd first makes Node open stdout as a stream, which puts a pipe into
  // non-blocking mode: a write then fails with EAGAIN instead of holding a thread for ever.
  const output = createLogOutput({ fd: fd ?? process.stdout.fd, bufferBytes });
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  const logger = pino(options, { write: output.write });
  const processLogger = pino(options, { write: output.writeUrgent });
  output.onRecovered((dropped) =>
    processLogger.warn({ droppedLines: dropped }, 'log output was blocked: lines were dropped'),
  );
  return { logger, processLogger, output };
}
