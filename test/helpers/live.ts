import { NO_LIVE_CHANGES, type LiveChanges } from '../../server/content/live-file.ts';
import type { LiveSource } from '../../server/live/live-source.ts';
import { withVersion } from '../../server/live/live-version.ts';

/** The time a changeable live source's first state is dated: its later ones follow a second apart. */
export const LIVE_START = new Date('2027-03-18T08:00:00.000Z');

/**
 * A live source the test changes at will, as the live file would be changed, each change a second
 * later. What a change leaves out is as without a live file: no notice, status, times or stream.
 */
export function changeableLive(changes: Partial<LiveChanges> = {}) {
  let state = withVersion({ ...NO_LIVE_CHANGES, ...changes }, LIVE_START);
  const source: LiveSource & { set(changes: Partial<LiveChanges>, afterMs?: number): void } = {
    get: async () => state,
    current: () => state,
    close() {},
    set(next, afterMs = 1000) {
      state = withVersion({ ...NO_LIVE_CHANGES, ...next }, new Date(Date.parse(state.updated) + afterMs));
    },
  };
  return source;
}
