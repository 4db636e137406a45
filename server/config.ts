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
  PUBLIC_ORIGIN: z
    .string()
    .refine((value) => /^https?:\/\/[^/?#]+$/.test(value) && URL.canParse(value), 'must be an origin like https://event.example.com')
    .optional(),
  SUPABASE_URL: z.string().optional(),
  SUPABASE_ANON_KEY: z.string().optional(),
  IMAGE_HOSTS: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  production: boolean;
  contentPath: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Where visitors reach the site; every absolute URL is built from it, never from request headers. */
  publicOrigin: string;
  /** The Supabase backend, or null to run on the content file alone. */
  backend: { url: string; anonKey: string } | null;
  /** Hosts besides the backend's own that hero images may come from. */
  imageHosts: string[];
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
    publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    backend: e.SUPABASE_URL && e.SUPABASE_ANON_KEY ? { url: e.SUPABASE_URL, anonKey: e.SUPABASE_ANON_KEY } : null,
    imageHosts: (e.IMAGE_HOSTS ?? '').split(',').map((host) => host.trim()).filter(Boolean),
  });
}

/** An empty variable (`PORT=`) means "not set", as shells and orchestrators often leave them. */
function emptyAsUnset(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}
