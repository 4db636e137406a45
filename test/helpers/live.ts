import type { LiveChanges } from '../../server/content/live-file.ts';
import type { LiveSource } from '../../server/live/live-source.ts';
import { withVersion } from '../../server/live/live-version.ts';

/** The time a changeable live source's first state is dated: its later ones follow a second apart. */
export const LIVE_START = new Date('2027-03-18T08:00:00.000Z');

/** A live source the test changes at will, as the live file would be changed, each change a second later. */
export function changeableLive(changes: LiveChanges = { notice: null, status: null, schedule: null }) {
  let state = withVersion(changes, LIVE_START);
  const source: LiveSource & { set(changes: LiveChanges): void } = {
    get: async () => state,
    close() {},
    set(next) {
      state = withVersion(next, new Date(Date.parse(state.updated) + 1000));
    },
  };
  return source;
}
