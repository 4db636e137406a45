import pino, { type Logger } from 'pino';

export type { Logger };

/** One JSON object per line on stdout; the level comes from LOG_LEVEL. */
export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
