import { API_PATHS } from '../../shared/api.ts';
import { EVENT_STATUSES } from '../../shared/event-clock.ts';
import { EMBED_LOADS } from '../../shared/embeds.ts';
import { NOTICE_LEVELS, type LiveNotice, type LiveSchedule, type LiveState } from '../../shared/live-state.ts';
import type { PublicRecording, PublicVideo } from '../../shared/page-data.ts';

/**
 * Asks the server for the live state, conditionally once it has answered: what the returned
 * function resolves to is the state it answered, or null when it had nothing new (304), failed,
 * or answered something that is no live state.
 *
 * The request carries its own If-None-Match rather than leaving revalidation to the browser's
 * cache (`cache: 'no-cache'`): a request with a conditional header of the page's goes past that
 * cache in every engine, and its 304 reaches the page as a 304 (Fetch: the cache mode turns
 * "no-store"), where `no-cache` hands back whatever the engine's cache kept, if it kept anything
 * (a private window, an evicted entry), as a 200 that cannot be told from a change.
 */
export function liveStateAsker(fetchLive: typeof fetch = (...args) => fetch(...args)): () => Promise<LiveState | null> {
  let etag: string | null = null;
  return async () => {
    try {
      const response = await fetchLive(API_PATHS.live, {
        cache: 'no-store',
        headers: etag ? { 'If-None-Match': etag } : {},
      });
      if (response.status !== 200) return null;
      const state = readLiveState(await response.json());
      if (state) etag = response.headers.get('ETag');
      return state;
    } catch {
      return null; // offline, or a body cut short: the next tick asks again
    }
  };
}

/**
 * `value` as a live state when it has the shape of one, else null. A state without `stream` or
 * `recording` (a replica of a release before them, during a rolling update) names none.
 */
export function readLiveState(value: unknown): LiveState | null {
  if (!isObject(value)) return null;
  const { version, updated, notice, status, schedule = null, stream = null, recording = null } = value;
  if (typeof version !== 'string' || typeof updated !== 'string' || Number.isNaN(Date.parse(updated))) return null;
  if (status !== null && !(EVENT_STATUSES as readonly unknown[]).includes(status)) return null;
  if (notice !== null && !isNotice(notice)) return null;
  // A server of the release before answers without times or a stream: it moves none.
  if (schedule !== null && !isSchedule(schedule)) return null;
  if (stream !== null && !isVideo(stream)) return null;
  if (recording !== null && !isRecording(recording)) return null;
  return { version, updated, notice, status, schedule, stream, recording } as LiveState;
}

/** The recording as the server forms it: a player as a backup stream's, and where it begins. */
function isRecording(value: unknown): value is PublicRecording {
  return (
    isVideo(value) &&
    Number.isInteger((value as { beginsAtSeconds?: unknown }).beginsAtSeconds) &&
    (value as PublicRecording).beginsAtSeconds >= 0
  );
}

function isSchedule(value: unknown): value is LiveSchedule {
  const isTime = (time: unknown) => typeof time === 'number' && Number.isFinite(time);
  return (
    isObject(value) &&
    isTime(value.start) &&
    isTime(value.end) &&
    isObject(value.utcOffsetMinutes) &&
    isTime(value.utcOffsetMinutes.start) &&
    isTime(value.utcOffsetMinutes.end) &&
    isObject(value.display) &&
    Object.values(value.display).every(
      (display) => isObject(display) && typeof display.date === 'string' && typeof display.time === 'string',
    )
  );
}

/** A backup stream as the server forms it: its addresses, its provider and its placeholder picture. */
function isVideo(value: unknown): value is PublicVideo {
  if (!isObject(value) || !isObject(value.provider)) return false;
  const { embedUrl, watchUrl, provider, poster } = value;
  return (
    isHttpsAddress(embedUrl) &&
    isHttpsAddress(watchUrl) &&
    typeof provider.name === 'string' &&
    typeof provider.privacyUrl === 'string' &&
    (EMBED_LOADS as readonly unknown[]).includes(provider.load) &&
    (poster === null ||
      (isObject(poster) &&
        typeof poster.src === 'string' &&
        (poster.srcset === undefined || typeof poster.srcset === 'string')))
  );
}

function isHttpsAddress(value: unknown): boolean {
  try {
    return typeof value === 'string' && new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

function isNotice(value: unknown): value is LiveNotice {
  return (
    isObject(value) &&
    (NOTICE_LEVELS as readonly unknown[]).includes(value.level) &&
    isObject(value.text) &&
    Object.values(value.text).every((text) => typeof text === 'string')
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
