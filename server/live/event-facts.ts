import { effectiveStatus, startMoved, type LiveState } from '../../shared/live-state.ts';
import type { EventFacts } from '../content/site-content.ts';

/**
 * One step of the calendar's SEQUENCE: two changes a moment apart are two revisions, and the 32-bit
 * INTEGER of RFC 5545 holds six years of tenths of a second.
 */
export const SEQUENCE_STEP_MS = 100;

/**
 * The event's facts as the live state leaves them, for search engines and calendars: its times
 * and status, the planned start where the live state moves it, and a revision that only grows.
 *
 * A calendar app takes an entry with the same UID as a revision when its SEQUENCE is higher, so
 * the SEQUENCE counts the tenths of a second from the content file's `updated` to the live state's
 * own time: the same state gives the same number on every replica and after a restart (the backend
 * row's `updated_at`, the live file's modification time), and a later change a higher one, even
 * within the same second, without a counter kept anywhere.
 */
export function eventFactsWithLive(
  planned: EventFacts,
  live: Pick<LiveState, 'status' | 'schedule' | 'updated'>,
): EventFacts {
  const liveUpdated = Date.parse(live.updated);
  const moved = startMoved(live, { start: planned.start.getTime() });
  return {
    ...planned,
    ...(live.schedule ? { start: new Date(live.schedule.start), end: new Date(live.schedule.end) } : {}),
    status: effectiveStatus(live, { status: planned.status, start: planned.start.getTime() }),
    updated: new Date(Math.max(planned.updated.getTime(), liveUpdated)),
    sequence: Math.max(0, Math.floor((liveUpdated - planned.updated.getTime()) / SEQUENCE_STEP_MS)),
    ...(moved ? { previousStart: planned.start } : {}),
  };
}
