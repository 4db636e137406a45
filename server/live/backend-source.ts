import type { Logger } from 'pino';
import type { LiveState } from '../../shared/live-state.ts';
import { BackendCache, servingWindows, type CacheEntry } from '../backend/cache.ts';
import type { CacheObserver } from '../backend/cache-events.ts';
import type { BackendConnection } from '../backend/connection.ts';
import { checkLiveRow } from '../backend/live-row.ts';
import type { SavedEntry } from '../backend/snapshot.ts';
import type { Config } from '../config/environment.ts';
import { NO_LIVE_CHANGES } from '../content/live-file.ts';
import type { LiveRules } from '../content/live-rules.ts';
import type { LiveObserver, LiveSource } from './live-source.ts';
import { withVersion } from './live-version.ts';
import { pageShows } from './page-shows.ts';

export interface BackendLiveSourceOptions {
  /** The content file's rules the row is checked with. */
  rules: LiveRules;
  logger: Logger;
  /** Counts refused rows. */
  observer: LiveObserver;
  /** Counts failed calls, as for the hero's. */
  cacheObserver: CacheObserver;
  /** The cache's clock, in ms since the epoch. */
  now: () => number;
}

/** What the cache keeps: the state, and the row it was read from (for the snapshot, checked again at start). */
interface KeptRow {
  state: LiveState;
  row: unknown;
}

/** Before any good row is known: no notice, no status. */
const NO_ROW: KeptRow = { state: withVersion(NO_LIVE_CHANGES, new Date(0)), row: null };

/**
 * The live state from the backend's row (server/backend/live-row.ts), through the cache the hero's
 * calls have: fresh for LIVE_BACKEND_FRESH_SECONDS and read again after it, one call for concurrent misses, the last good
 * state while the backend fails (CACHE_STALE_SECONDS), kept in the snapshot across restarts.
 *
 * A row the check refuses is a bad change, not a failing backend: the last good state stays (as
 * the answer of that call, so it stays for as long as the row is bad), and the refusal is logged
 * and counted once, however often the same row is read again. The backend down, slow or
 * answering something else is the cache's to handle: logged once, counted in upstream_errors_total.
 */
export function backendLiveSource(
  config: Config,
  backend: BackendConnection,
  options: BackendLiveSourceOptions,
): LiveSource {
  const { rules, logger } = options;
  const restored = restore(backend.saved.live, rules, options.now());
  let kept: KeptRow = restored?.value ?? NO_ROW;
  let lastText: string | null = null;

  const load = async (signal: AbortSignal) => {
    const { rows, text } = await backend.calls.liveRows(signal);
    if (text === lastText) return { value: kept, dropped: [] };
    const checked = checkLiveRow(rows, text, rules);
    lastText = text;
    if (!checked.live) {
      options.observer.refused('backend');
      logger.warn(
        { table: 'live_state', problems: checked.problems, version: kept.state.version },
        `live row change refused; the live state stays as it was: live_state: ${checked.problems[0]}`,
      );
      return { value: kept, dropped: [] };
    }
    for (const warning of checked.warnings) logger.warn({ table: 'live_state' }, `live_state: ${warning}`);
    const state = withVersion(checked.live, new Date(checked.updated));
    // Every save that is taken is confirmed, one that changes nothing the page shows as well.
    logger.info(
      { table: 'live_state', version: state.version, ...pageShows(state, rules) },
      state.version !== kept.state.version ? 'live state changed' : 'live row read; nothing the page shows changed',
    );
    kept = { state, row: (rows as unknown[])[0] };
    return { value: kept, dropped: [] };
  };

  const windows = servingWindows({ ...config.cache, freshSeconds: config.live.backendFreshSeconds });
  const cache = new BackendCache<KeptRow>({
    endpoint: 'live',
    load,
    // No stale-while-revalidate while the backend answers: a row past its freshness is read again
    // before it is served, so a change reaches the server's answers within the freshness itself
    // (the bound's server part). While the backend fails, the last good row is served at once.
    windows: { ...windows, servedAtOnceMs: (failing) => (failing ? windows.servedAtOnceMs(true) : windows.freshMs) },
    timeoutMs: config.upstreamTimeoutMs,
    now: options.now,
    observer: options.cacheObserver,
    logger,
    saved: restored,
    // The row, not the state: at the next start it is checked again, with the content then served.
    onStored: (entry) => {
      if (entry.value.row !== null)
        backend.snapshot.save('live', { value: entry.value.row, fetchedAt: entry.fetchedAt });
    },
  });

  return {
    get: async () => (await cache.get()).entry?.value.state ?? NO_ROW.state,
    current: () => cache.current()?.entry?.value.state ?? null,
    close() {},
  };
}

function restore(saved: SavedEntry | undefined, rules: LiveRules, now: number): CacheEntry<KeptRow> | null {
  if (!saved || typeof saved.fetchedAt !== 'number' || !Number.isFinite(saved.fetchedAt)) return null;
  try {
    const checked = checkLiveRow([saved.value], JSON.stringify([saved.value]), rules);
    if (!checked.live) return null;
    return {
      value: { state: withVersion(checked.live, new Date(checked.updated)), row: saved.value },
      fetchedAt: Math.min(saved.fetchedAt, now),
    };
  } catch {
    return null;
  }
}
