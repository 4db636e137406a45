import {
  createClient,
  FunctionsFetchError,
  FunctionsHttpError,
  StorageApiError,
  type PostgrestError,
} from '@supabase/supabase-js';
import type { HeroSlide } from '../../shared/page-data.ts';
import { checkHeroSlides, chooseLogoFile, type Checked } from './backend-data.ts';
import { BackendCallError } from './backend-errors.ts';
import type { ImagePolicy } from './image-policy.ts';
import { LIVE_TABLE } from './live-row.ts';

/** Anything larger is not a list of slides or logos; reading it would only cost memory. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export const HERO_IMAGES_FUNCTION = 'hero-images';
export const LOGO_BUCKET = 'logo';
const LOGO_LISTING_LIMIT = 100;

export { BackendCallError };

/** The two calls the page needs, each checked before it is returned. */
export interface BackendCalls {
  heroSlides(signal: AbortSignal): Promise<Checked<HeroSlide[]>>;
  /** The public address of the logo: the preferred file, the first listed, or the default name. */
  logoUrl(signal: AbortSignal): Promise<Checked<string>>;
  /** The public address of a file in the logo bucket (no request is made). */
  publicLogoUrl(name: string): string;
  /** The live table's rows (at most two: one is expected), parsed and as the text they came in. */
  liveRows(signal: AbortSignal): Promise<{ rows: unknown; text: string }>;
}

export interface BackendOptions {
  url: string;
  anonKey: string;
  images: ImagePolicy;
  logoFileName: string;
}

/**
 * One supabase-js client for the life of the process. It keeps no session and starts no
 * timers; every request it makes goes through a fetch that ends when the call's signal aborts
 * (the cache's deadline, UPSTREAM_TIMEOUT_MS), headers and body alike, and refuses bodies over
 * MAX_ANSWER_BYTES.
 */
export function supabaseBackend(options: BackendOptions): BackendCalls {
  // The bodies as they came, by the call's signal: supabase-js hands over only what JSON.parse made of them.
  const bodies = new WeakMap<AbortSignal, string>();
  const client = createClient(options.url, options.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: boundedFetch(MAX_ANSWER_BYTES, (signal, body) => bodies.set(signal, new TextDecoder().decode(body))),
    },
  });
  const bucket = client.storage.from(LOGO_BUCKET);
  const publicLogoUrl = (name: string) => bucket.getPublicUrl(name).data.publicUrl;

  return {
    async heroSlides(signal) {
      const { data, error } = await client.functions.invoke(HERO_IMAGES_FUNCTION, { signal });
      if (error)
        throw new BackendCallError(`${HERO_IMAGES_FUNCTION}: ${await describeFailure(error)}`, failureStatus(error));
      return checkHeroSlides(data, options.images);
    },
    async logoUrl(signal) {
      const { data, error } = await bucket.list('', { limit: LOGO_LISTING_LIMIT }, { signal });
      if (error) throw new BackendCallError(`logo listing: ${await describeFailure(error)}`, failureStatus(error));
      const chosen = chooseLogoFile(data, options.logoFileName);
      return { value: publicLogoUrl(chosen.value ?? options.logoFileName), dropped: chosen.dropped };
    },
    publicLogoUrl,
    async liveRows(signal) {
      // No retries of postgrest-js's own: a refused connection fails at once, and the cache retries.
      const { data, error, status } = await client
        .from(LIVE_TABLE)
        .select('*')
        .limit(2)
        .retry(false)
        .abortSignal(signal);
      if (error) throw new BackendCallError(`${LIVE_TABLE}: ${describeRowsFailure(error, status)}`, rowsStatus(status));
      return { rows: data, text: bodies.get(signal) ?? '' };
    },
  };
}

/**
 * PostgREST's error, in one line: its status, code and message (a missing table is 404 PGRST205,
 * a refused key 401). A 200 with an error is a body that is not JSON; status 0, no answer at all.
 */
function describeRowsFailure(error: PostgrestError, status: number): string {
  if (status === 0) {
    if (error.hint?.includes('aborted')) return 'timed out';
    // postgrest-js writes the cause's code into details only: "Caused by: Error: connect ECONNREFUSED … (ECONNREFUSED)".
    const code = /\((E[A-Z]+|UND_ERR_[A-Z_]+)\)/.exec(error.details ?? '')?.[1];
    return code ? `fetch failed (${code})` : oneLine(error.message);
  }
  if (status >= 200 && status < 300) return 'answered something that is not JSON';
  return `answered HTTP ${status}${error.code ? ` ${error.code}` : ''} (${oneLine(error.message)})`;
}

function rowsStatus(status: number): number | undefined {
  if (status === 0) return undefined;
  return status >= 200 && status < 300 ? 502 : status;
}

/**
 * fetch with a size limit and no redirects (a redirect would carry the apikey header to wherever
 * it points). The body is read here, in full, so that supabase-js parses it only after the limit
 * has been applied, and so that the call's signal ends a body that stalls, not only the headers.
 */
export function boundedFetch(maxBytes: number, onBody?: (signal: AbortSignal, body: Uint8Array) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, { ...init, redirect: 'error' });
    const body = await readAtMost(response, maxBytes);
    if (init?.signal) onBody?.(init.signal, body);
    const nullBody = [101, 204, 205, 304].includes(response.status);
    return new Response(nullBody ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

async function readAtMost(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new BackendCallError(`the answer is larger than ${maxBytes} bytes`, 502);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The status a failure is reported with: the backend's own, 502 for an unusable answer, none when no answer came. */
function failureStatus(error: unknown): number | undefined {
  if (error instanceof FunctionsHttpError) return (error.context as Response).status;
  if (error instanceof StorageApiError) return Number(error.status) || undefined;
  if (error instanceof SyntaxError) return 502;
  const cause =
    error instanceof FunctionsFetchError ? error.context : (error as { originalError?: unknown }).originalError;
  if (cause instanceof SyntaxError) return 502;
  if (cause instanceof BackendCallError) return cause.status;
  return undefined;
}

/** One line on what went wrong, from the error objects supabase-js returns instead of throwing. */
async function describeFailure(error: unknown): Promise<string> {
  if (error instanceof FunctionsHttpError) return `answered HTTP ${(error.context as Response).status}`;
  if (error instanceof StorageApiError) return `answered HTTP ${error.status} (${oneLine(error.message)})`;
  if (error instanceof FunctionsFetchError) return describeCause(error.context);
  if (error instanceof SyntaxError) return 'answered something that is not JSON';
  const original = (error as { originalError?: unknown }).originalError;
  if (original !== undefined) {
    return original instanceof SyntaxError ? 'answered something that is not JSON' : describeCause(original);
  }
  return describeCause(error);
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return 'failed';
  if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return 'timed out';
  const code = (cause.cause as { code?: unknown } | undefined)?.code;
  return oneLine(typeof code === 'string' ? `${cause.message} (${code})` : cause.message);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
