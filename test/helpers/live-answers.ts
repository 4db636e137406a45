import { vi } from 'vitest';
import type { LiveState } from '../../shared/live-state.ts';

/**
 * Stands in for the server's /api/live: each ask answered with the next of `answers` (the last one
 * again once they run out), a state with its version as the entity tag, or 304. Returns the stub.
 */
export function serveLiveStates(...answers: (LiveState | 304)[]) {
  const fetchLive = vi.fn<typeof fetch>(async () => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer === 304
      ? new Response(null, { status: 304 })
      : new Response(JSON.stringify(answer), { status: 200, headers: { ETag: `"${answer.version}"` } });
  });
  vi.stubGlobal('fetch', fetchLive);
  return fetchLive;
}

/** A live state of `version`, saved at `updated`, that says nothing but what `says` sets. */
export function liveState(
  version: string,
  updated: string,
  says: Partial<Omit<LiveState, 'version' | 'updated'>> = {},
): LiveState {
  return { version, updated, notice: null, status: null, schedule: null, stream: null, recording: null, ...says };
}
