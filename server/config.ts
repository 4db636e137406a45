import path from 'node:path';
import { z } from 'zod';
import { APP_ROOT, DEFAULT_CONTENT_PATH } from './paths.ts';

/** A configuration the server cannot run with; its message is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const port = z.coerce.number().int().min(0).max(65535);

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  CONTENT_PATH: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  production: boolean;
  contentPath: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

/** Reads and checks the environment once, at start. Nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(emptyAsUnset(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    production: e.NODE_ENV === 'production',
    contentPath: e.CONTENT_PATH ? path.resolve(APP_ROOT, e.CONTENT_PATH) : DEFAULT_CONTENT_PATH,
    logLevel: e.LOG_LEVEL,
  });
}

/** An empty variable (`PORT=`) means "not set", as shells and orchestrators often leave them. */
function emptyAsUnset(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}
