import type { LiveChanges } from '../../server/content/live-file.ts';
import type { LiveSource } from '../../server/live/live-source.ts';
import { withVersion } from '../../server/live/live-version.ts';

export const UPDATED = '2027-03-18T12:00:00.000Z';

/** A live source the test changes at will, as the live file would be changed. */
export function changeableLive(changes: LiveChanges = { notice: null, status: null }) {
  let state = withVersion(changes, UPDATED);
  const source: LiveSource & { set(changes: LiveChanges): void } = {
    get: async () => state,
    close() {},
    set(next) {
      state = withVersion(next, UPDATED);
    },
  };
  return source;
}
