import os from 'node:os';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { APP_ROOT, DEFAULT_CONTENT_PATH, liveFileBeside, LOCALES_DIR } from './paths.ts';

/** A configuration the server cannot run with; its message is one line naming every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
  }
}

/** The file the backend's preferred logo is stored under, in the `logo` bucket. */
export const DEFAULT_LOGO_FILE_NAME = 'logo-3d-white-on-blue.png';
export const DEFAULT_SNAPSHOT_PATH = path.join(os.tmpdir(), 'horizon-live-backend-cache.json');
export const DEFAULT_PHOTOS_PATH = path.join(os.tmpdir(), 'horizon-live-photos');
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

// supabase-js's own messages for half a configuration (test/config.test.ts checks them against createClient).
export const SUPABASE_URL_REQUIRED = 'supabaseUrl is required.';
export const SUPABASE_KEY_REQUIRED = 'supabaseKey is required.';

const port = z.coerce.number().int().min(0).max(65535);
const wholeNumber = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const supabaseUrl = z
  .string()
  .trim()
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    return (
      !!url &&
      (url.protocol === 'https:' || url.protocol === 'http:') &&
      !url.username &&
      !url.password &&
      !url.search &&
      !url.hash
    );
  }, 'must be an http:// or https:// address without credentials, query or fragment, like https://<project>.supabase.co');

// A host name with an optional port, as it appears in an image address ("images.example.com", "cdn.example.com:8443").
const imageHosts = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine(
    (hosts) =>
      hosts.every((host) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/.test(host)),
    'must be a comma-separated list of host names such as images.example.com',
  );

// A name getPublicUrl can turn into a working address: no folders, no "?" or "#", no control characters.
const logoFileName = z
  .string()
  .trim()
  .max(200)
  .refine(
    (value) => !/[/\\?#\p{Cc}]/u.test(value) && !value.startsWith('.'),
    'must be a plain file name such as logo.png',
  );
const milliseconds = z.coerce.number().int().min(0).max(3_600_000);

/** The names Express accepts for address ranges in `trust proxy`. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `trust proxy`: unset or "false" trusts no proxy; a number trusts that many hops; otherwise a
 * comma-separated list of addresses, CIDR ranges or range names. "true" is refused: it would let
 * any client choose its own address through X-Forwarded-For.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    if (value === undefined || value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.find((entry) => !PROXY_RANGE_NAMES.includes(entry) && !isAddressOrRange(entry));
    if (value === 'true' || entries.length === 0 || bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a hop count or a list of addresses, CIDR ranges or ${PROXY_RANGE_NAMES.join('/')}${bad ? ` (not "${bad}")` : ''}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * REHEARSAL_CLOCK as given: what the event clock reads when the server starts. A wall-clock time
 * (`2027-03-18T17:55`) is read in the content file's time zone, which this module does not know:
 * server/content/rehearsal-clock.ts turns it into the clock's shift once the content is read.
 */
export type RehearsalClockSetting =
  { given: string; wallClock: { date: string; time: string } } | { given: string; instant: number };

const WALL_CLOCK = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?(Z|[+-](\d{2}):(\d{2}))$/i;

/** A day that exists (no 30 February) and a time of day from 00:00 to 23:59. */
function isDayAndTime(date: string, time: string): boolean {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const day = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(date) && hour <= 23 && minute <= 59;
}

const rehearsalClock = z
  .string()
  .trim()
  .transform((value, ctx): RehearsalClockSetting => {
    const wall = WALL_CLOCK.exec(value);
    if (wall && isDayAndTime(wall[1]!, wall[2]!))
      return { given: value, wallClock: { date: wall[1]!, time: wall[2]! } };
    const instant = INSTANT.exec(value);
    if (
      instant &&
      isDayAndTime(instant[1]!, instant[2]!) &&
      Number(instant[6] ?? 0) <= 23 &&
      Number(instant[7] ?? 0) <= 59
    ) {
      const at = Date.parse(value.toUpperCase());
      if (Number.isFinite(at)) return { given: value, instant: at };
    }
    ctx.addIssue({
      code: 'custom',
      message:
        "must be the event clock's time at start on the event's wall clock, like 2027-03-18T17:55, or an instant with its offset, like 2027-03-18T16:55Z",
    });
    return z.NEVER;
  });

const envSchema = z.object({
  PORT: port.default(3000),
  // Prometheus' own range of exporter ports; apart from the visitors' port, so no public route reaches it.
  METRICS_PORT: port.default(9464),
  HOST: z.string().min(1).default('0.0.0.0'),
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  CONTENT_PATH: z.string().min(1).optional(),
  LOCALES_PATH: z.string().min(1).optional(),
  LIVE_PATH: z.string().min(1).optional(),
  LIVE_EDGE_SECONDS: wholeNumber(0, 60).default(5),
  LIVE_FILE_CHECK_SECONDS: wholeNumber(1, 3600).default(5),
  LIVE_POLL_SECONDS: wholeNumber(1, 300).default(30),
  LIVE_BACKEND_FRESH_SECONDS: wholeNumber(1, 60).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_BUFFER_BYTES: wholeNumber(16 * 1024, 64 * 1024 * 1024).default(1024 * 1024),
  PUBLIC_ORIGIN: z
    .string()
    .refine(
      (value) => /^https?:\/\/[^/?#]+$/.test(value) && URL.canParse(value),
      'must be an origin like https://event.example.com',
    )
    .optional(),
  SUPABASE_URL: z.string().optional(),
  SUPABASE_ANON_KEY: z.string().optional(),
  IMAGE_HOSTS: imageHosts.default([]),
  CACHE_FRESH_SECONDS: wholeNumber(1, 31_536_000).default(60),
  CACHE_STALE_SECONDS: wholeNumber(0, 31_536_000).default(86_400),
  PAGE_EDGE_SECONDS: wholeNumber(0, 3600).default(5),
  UPSTREAM_TIMEOUT_MS: wholeNumber(1, 60_000).default(2500),
  CACHE_SNAPSHOT_PATH: z.string().min(1).optional(),
  LOGO_FILE_NAME: logoFileName.default(DEFAULT_LOGO_FILE_NAME),
  PHOTOS_PATH: z.string().min(1).optional(),
  PHOTOS_DISK_MB: wholeNumber(1, 4096).default(48),
  SHUTDOWN_TIMEOUT_MS: milliseconds.default(DEFAULT_SHUTDOWN_TIMEOUT_MS),
  // Above the 60 s idle timeout of common load balancers, so the server never closes a
  // keep-alive connection the balancer is about to reuse (which the balancer reports as a 502).
  KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(65_000),
  HEADERS_TIMEOUT_MS: milliseconds.default(66_000),
  REQUEST_TIMEOUT_MS: milliseconds.default(75_000),
  TRUST_PROXY: trustProxy,
  REHEARSAL_CLOCK: rehearsalClock.optional(),
  REHEARSAL_IN_PRODUCTION: z.literal('yes', 'must be yes, or unset').optional(),
});

/** The timeouts' order, checked once each of them is a valid number. */
const timeoutOrder = envSchema
  .pick({ KEEP_ALIVE_TIMEOUT_MS: true, HEADERS_TIMEOUT_MS: true, REQUEST_TIMEOUT_MS: true })
  .refine((e) => e.HEADERS_TIMEOUT_MS > e.KEEP_ALIVE_TIMEOUT_MS, {
    path: ['HEADERS_TIMEOUT_MS'],
    message: 'must be longer than KEEP_ALIVE_TIMEOUT_MS',
  })
  .refine((e) => e.REQUEST_TIMEOUT_MS >= e.HEADERS_TIMEOUT_MS, {
    path: ['REQUEST_TIMEOUT_MS'],
    message: 'must be at least HEADERS_TIMEOUT_MS',
  });

/** The two listeners' ports, checked once each is a valid number: 0 (a free port) may be both. */
const portsApart = envSchema
  .pick({ PORT: true, METRICS_PORT: true })
  .refine((e) => e.METRICS_PORT === 0 || e.METRICS_PORT !== e.PORT, {
    path: ['METRICS_PORT'],
    message: 'must differ from PORT',
  });

/** A rehearsal's clock on a production server only when a second variable says so. */
const rehearsalAllowed = envSchema
  .pick({ NODE_ENV: true, REHEARSAL_CLOCK: true, REHEARSAL_IN_PRODUCTION: true })
  .refine((e) => !e.REHEARSAL_CLOCK || e.NODE_ENV !== 'production' || e.REHEARSAL_IN_PRODUCTION === 'yes', {
    path: ['REHEARSAL_CLOCK'],
    message: 'a rehearsal is refused with NODE_ENV=production unless REHEARSAL_IN_PRODUCTION=yes',
  });

/** Every environment variable the server reads. */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Express's `trust proxy` setting: no proxy, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

export interface CacheSettings {
  /** How long a backend answer is fresh; also the stale-while-revalidate window. */
  freshSeconds: number;
  /** How long the last good answer may stand in for a failing backend (stale-if-error). */
  staleSeconds: number;
  /** Where the last good answers are kept across restarts. */
  snapshotPath: string;
}

export interface LiveSettings {
  /** The live file: what the event team changes on the day, read again whenever it changes. */
  path: string;
  /** That file as the operator named it (LIVE_PATH, or beside the content file), for messages. */
  pathAsGiven: string;
  /** How long a shared cache or a browser may keep /api/live. */
  edgeSeconds: number;
  /** How often the file is compared with what was read, besides the folder's change events. */
  fileCheckSeconds: number;
  /** How often an open page asks for the live state (at most; each wait is shortened at random, to half). */
  pollSeconds: number;
  /** With a backend: how long its live row, once read, is fresh (its own window, shorter than the hero's). */
  backendFreshSeconds: number;
}

export interface Config {
  port: number;
  /** Where /metrics is served, on the same host (0: a free port). */
  metricsPort: number;
  host: string;
  production: boolean;
  contentPath: string;
  /** The content file as the operator named it (CONTENT_PATH), for messages. */
  contentPathAsGiven: string;
  /** The folder of the languages' folders (`<code>/translation.json`). */
  localesPath: string;
  /** That folder as the operator named it (LOCALES_PATH), for messages. */
  localesPathAsGiven: string;
  live: LiveSettings;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** The most bytes of log lines kept for a reader that is slow; what does not fit is dropped. */
  logBufferBytes: number;
  /** Where visitors reach the site; every absolute URL is built from it, never from request headers. */
  publicOrigin: string;
  /** The Supabase backend, or null to run on the content file alone. */
  backend: { url: string; anonKey: string } | null;
  /** Hosts besides the backend's own that hero images may come from. */
  imageHosts: string[];
  cache: CacheSettings;
  /** The longest a shared cache in front may keep a page (0: pages are not offered to it). */
  pageEdgeSeconds: number;
  /** The longest a backend call may take, headers and body. */
  upstreamTimeoutMs: number;
  /** The preferred file of the backend's logo bucket. */
  logoFileName: string;
  /** The pictures made of the hero's photos: their folder, and the most bytes it may hold. */
  photos: { path: string; maxBytes: number };
  /** How long a shutdown may wait for in-flight requests before it closes them. */
  shutdownTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** How long a client may take to send a request's headers. */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request. */
  requestTimeoutMs: number;
  /** Which proxies in front may tell the client's address and protocol (X-Forwarded-*). */
  trustProxy: TrustProxy;
  /** What the event clock reads at start in a rehearsal (REHEARSAL_CLOCK); null: the real clock. */
  rehearsalClock: RehearsalClockSetting | null;
}

/** Reads and checks the environment once, at start. Nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const variables = emptyAsUnset(env);
  const parsed = envSchema.safeParse(variables);
  const order = timeoutOrder.safeParse(variables);
  const ports = portsApart.safeParse(variables);
  const rehearsal = rehearsalAllowed.safeParse(variables);
  const backend = backendSettings(variables.SUPABASE_URL, variables.SUPABASE_ANON_KEY);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues),
    // The order's and the ports' own findings only: a value that is not a number is reported above.
    ...(order.success ? [] : order.error.issues.filter((issue) => issue.code === 'custom')),
    ...(ports.success ? [] : ports.error.issues.filter((issue) => issue.code === 'custom')),
    ...(rehearsal.success
      ? []
      : rehearsal.error.issues.filter((issue) => issue.code === 'custom' && issue.path[0] === 'REHEARSAL_CLOCK')),
  ]
    // One line per variable: its first problem.
    .filter((issue, index, issues) => issues.findIndex((other) => other.path[0] === issue.path[0]) === index)
    .map((issue) => `Invalid ${issue.path.join('.')}: ${issue.message}`);
  if ('problems' in backend) problems.push(...backend.problems);
  if (problems.length > 0 || !parsed.success || 'problems' in backend) throw new ConfigError(problems);
  const e = parsed.data;
  const contentPath = e.CONTENT_PATH ? path.resolve(APP_ROOT, e.CONTENT_PATH) : DEFAULT_CONTENT_PATH;
  const contentPathAsGiven = e.CONTENT_PATH ?? path.relative(APP_ROOT, DEFAULT_CONTENT_PATH);
  return Object.freeze({
    port: e.PORT,
    metricsPort: e.METRICS_PORT,
    host: e.HOST,
    production: e.NODE_ENV === 'production',
    contentPath,
    contentPathAsGiven,
    localesPath: e.LOCALES_PATH ? path.resolve(APP_ROOT, e.LOCALES_PATH) : LOCALES_DIR,
    localesPathAsGiven: e.LOCALES_PATH ?? path.relative(APP_ROOT, LOCALES_DIR),
    live: {
      path: e.LIVE_PATH ? path.resolve(APP_ROOT, e.LIVE_PATH) : liveFileBeside(contentPath),
      pathAsGiven: e.LIVE_PATH ?? liveFileBeside(contentPathAsGiven),
      edgeSeconds: e.LIVE_EDGE_SECONDS,
      fileCheckSeconds: e.LIVE_FILE_CHECK_SECONDS,
      pollSeconds: e.LIVE_POLL_SECONDS,
      backendFreshSeconds: e.LIVE_BACKEND_FRESH_SECONDS,
    },
    logLevel: e.LOG_LEVEL,
    logBufferBytes: e.LOG_BUFFER_BYTES,
    publicOrigin: e.PUBLIC_ORIGIN ?? `http://localhost:${e.PORT}`,
    backend: backend.settings,
    imageHosts: e.IMAGE_HOSTS,
    cache: {
      freshSeconds: e.CACHE_FRESH_SECONDS,
      staleSeconds: e.CACHE_STALE_SECONDS,
      snapshotPath: e.CACHE_SNAPSHOT_PATH ? path.resolve(APP_ROOT, e.CACHE_SNAPSHOT_PATH) : DEFAULT_SNAPSHOT_PATH,
    },
    pageEdgeSeconds: e.PAGE_EDGE_SECONDS,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    logoFileName: e.LOGO_FILE_NAME,
    photos: {
      path: e.PHOTOS_PATH ? path.resolve(APP_ROOT, e.PHOTOS_PATH) : DEFAULT_PHOTOS_PATH,
      maxBytes: e.PHOTOS_DISK_MB * 1024 * 1024,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY,
    rehearsalClock: e.REHEARSAL_CLOCK ?? null,
  });
}

/**
 * Both or neither: half a backend configuration is a mistake, reported as supabase-js reports it.
 * Either the settings, or the lines naming what is wrong with them.
 */
function backendSettings(
  url: string | undefined,
  anonKey: string | undefined,
): { settings: Config['backend'] } | { problems: string[] } {
  url = url?.trim();
  anonKey = anonKey?.trim();
  if (!url && !anonKey) return { settings: null };
  const checked = url ? supabaseUrl.safeParse(url) : null;
  const problems = [
    ...(!url ? [SUPABASE_URL_REQUIRED] : []),
    ...(checked?.success === false ? [`Invalid SUPABASE_URL: ${checked.error.issues[0]!.message}`] : []),
    ...(!anonKey ? [SUPABASE_KEY_REQUIRED] : []),
  ];
  if (problems.length > 0 || !checked?.success || !anonKey) return { problems };
  return { settings: { url: checked.data.replace(/\/+$/, ''), anonKey } };
}

/** An empty variable (`PORT=`) means "not set", as shells and orchestrators often leave them. */
function emptyAsUnset(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}
