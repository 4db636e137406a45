import type { Logger } from 'pino';
import type { CacheSettings } from '../config/environment.ts';
import { BackendDataError, type Checked } from './backend-data.ts';
import { BackendCallError } from './backend-errors.ts';
import type { CachedEndpoint, CacheObserver, CacheOutcome } from './cache-events.ts';

/**
 * One backend answer kept in memory, with the semantics of nginx's proxy_cache_lock,
 * proxy_cache_use_stale and proxy_cache_background_update, and of RFC 5861:
 * - fresh for `windows.freshMs`: served as it is (hit);
 * - for another `freshMs` (stale-while-revalidate): served at once while one background refresh runs;
 * - older: the request waits for a refresh (miss), at most `timeoutMs`. When that fails, the
 *   last good answer is served (stale-if-error) until it is `windows.usableMs` old, and
 *   while the backend keeps failing it is served at once, retried in the background no more
 *   often than every `retryAfterFailureMs`; past that age nothing is served (fallback);
 * - concurrent requests share one upstream call;
 * - a failed call or an unusable answer never replaces the last good answer.
 */

export interface CacheEntry<T> {
  readonly value: T;
  /** When the backend gave this answer (ms, the cache's clock). */
  readonly fetchedAt: number;
}

export interface CacheAnswer<T> {
  outcome: CacheOutcome;
  /** Null when nothing good is known: the caller serves its fallback. */
  entry: CacheEntry<T> | null;
  ageMs: number;
  /** Whether the last backend call failed: the last good answer is then served at once until it is too old. */
  failing: boolean;
  /** The HTTP status of the last failed call: the backend's own, 504 when none came, 502 when it was unusable. */
  failureStatus: number | null;
}

export interface CacheOptions<T> {
  endpoint: CachedEndpoint;
  /** Calls the backend and checks the answer; throws when there is nothing usable. */
  load(signal: AbortSignal): Promise<Checked<T>>;
  windows: ServingWindows;
  timeoutMs: number;
  retryAfterFailureMs?: number;
  now: () => number;
  observer: CacheObserver;
  logger: Logger;
  /** An answer kept from an earlier run. */
  saved?: CacheEntry<T> | null;
  /** Told about every new good answer (to keep it across restarts). */
  onStored?(entry: CacheEntry<T>): void;
}

/**
 * The ages up to which the server's cache serves an answer, in one place: the cache acts on them
 * and the headers of its answers (cache-headers.ts) tell the caches in front the same windows.
 */
export interface ServingWindows {
  /** Younger than this, an answer is fresh and served as it is. */
  freshMs: number;
  /** Younger than this, a stale answer is served at once while one refresh runs. */
  servedAtOnceMs(failing: boolean): number;
  /** Younger than this, the last good answer may stand in for a failing backend. */
  usableMs: number;
}

export function servingWindows(cache: CacheSettings): ServingWindows {
  const freshMs = cache.freshSeconds * 1000;
  const usableMs = freshMs + cache.staleSeconds * 1000;
  return {
    freshMs,
    // Another freshness window after it turns stale; while the backend is failing, for as
    // long as the answer may stand in for it.
    servedAtOnceMs: (failing) => (failing ? Math.max(2 * freshMs, usableMs) : 2 * freshMs),
    usableMs,
  };
}

/** How long a failed call holds back the next background refresh, so a failing backend is not hammered. */
export const RETRY_AFTER_FAILURE_MS = 5000;

/** How a failed call is reported to the caches in front: what the backend answered, else 504 (no answer) or 502 (unusable). */
function upstreamStatusOf(error: unknown): number {
  if (error instanceof BackendCallError) return error.status ?? 504;
  if (error instanceof BackendDataError) return 502;
  return 504;
}

export class UpstreamTimeoutError extends Error {
  override name = 'UpstreamTimeoutError';
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
  }
}

export class BackendCache<T> {
  private entry: CacheEntry<T> | null;
  private inFlight: Promise<CacheEntry<T> | null> | null = null;
  /** Whether the last call failed, and when. */
  private failing = false;
  private lastFailureAt = -Infinity;
  private failureStatus: number | null = null;
  /** The last problem logged, so that a backend repeating itself is logged once. */
  private lastProblem: string | null = null;
  private readonly retryAfterFailureMs: number;

  constructor(private readonly options: CacheOptions<T>) {
    this.entry = options.saved ?? null;
    this.retryAfterFailureMs = options.retryAfterFailureMs ?? RETRY_AFTER_FAILURE_MS;
  }

  /**
   * get()'s answer when it needs no call to wait for: a fresh entry, or one served at once while a
   * refresh runs in the background; null when only get() can answer.
   */
  current(): CacheAnswer<T> | null {
    const { freshMs, servedAtOnceMs } = this.options.windows;
    const known = this.entry;
    if (!known) return null;
    const ageMs = this.ageOf(known);
    if (ageMs < freshMs) return this.answer('hit', known, ageMs);
    if (ageMs < servedAtOnceMs(this.failing)) {
      const failing = this.failing;
      void this.refresh({ background: true });
      return { ...this.answer('stale', known, ageMs), failing };
    }
    return null;
  }

  async get(): Promise<CacheAnswer<T>> {
    const { usableMs } = this.options.windows;
    const atOnce = this.current();
    if (atOnce) return atOnce;
    const refreshed = await this.refresh({ background: false });
    if (refreshed) return this.answer('miss', refreshed, this.ageOf(refreshed));
    const last = this.entry;
    if (last && this.ageOf(last) < usableMs) return this.answer('stale', last, this.ageOf(last));
    return this.answer('fallback', null, 0);
  }

  private answer(outcome: CacheOutcome, entry: CacheEntry<T> | null, ageMs: number): CacheAnswer<T> {
    return { outcome, entry, ageMs, failing: this.failing, failureStatus: this.failing ? this.failureStatus : null };
  }

  /**
   * The running refresh, or a new one; null when it failed. A background refresh is held back
   * for a while after a failure, so a failing backend is not called on every request; a
   * request with nothing to serve always tries.
   */
  private refresh({ background }: { background: boolean }): Promise<CacheEntry<T> | null> {
    if (this.inFlight) return this.inFlight;
    if (background && this.failing && this.options.now() - this.lastFailureAt < this.retryAfterFailureMs)
      return Promise.resolve(null);
    const call = this.callBackend();
    this.inFlight = call;
    void call.finally(() => {
      if (this.inFlight === call) this.inFlight = null;
    });
    return call;
  }

  /** Never rejects: a failure is logged, counted and answered with null. */
  private async callBackend(): Promise<CacheEntry<T> | null> {
    const { endpoint, logger, timeoutMs } = this.options;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new UpstreamTimeoutError(timeoutMs);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      const checked = await Promise.race([this.options.load(controller.signal), deadline]);
      const entry: CacheEntry<T> = { value: checked.value, fetchedAt: this.options.now() };
      this.entry = entry;
      this.failing = false;
      if (checked.dropped.length > 0)
        this.warnOnce({ endpoint, dropped: checked.dropped }, 'backend answer had unusable parts; they were left out');
      else if (this.lastProblem !== null) {
        logger.info({ endpoint }, 'backend answer is good again');
        this.lastProblem = null;
      }
      this.options.onStored?.(entry);
      return entry;
    } catch (error) {
      this.failing = true;
      this.lastFailureAt = this.options.now();
      this.failureStatus = upstreamStatusOf(error);
      this.options.observer.upstreamError(endpoint);
      const reason = error instanceof Error ? error.message : String(error);
      const lastGood = this.entry && this.ageOf(this.entry) < this.options.windows.usableMs;
      this.warnOnce({ endpoint, reason, serving: lastGood ? 'last good answer' : 'fallback' }, 'backend call failed');
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  private warnOnce(fields: Record<string, unknown>, message: string): void {
    const problem = JSON.stringify({ ...fields, serving: undefined, message });
    if (problem === this.lastProblem) this.options.logger.debug(fields, `${message} (again)`);
    else this.options.logger.warn(fields, message);
    this.lastProblem = problem;
  }

  private ageOf(entry: CacheEntry<T>): number {
    return Math.max(0, this.options.now() - entry.fetchedAt);
  }
}
