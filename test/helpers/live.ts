import type { LiveChanges } from '../../server/content/live-file.ts';
import type { LiveSource } from '../../server/live/live-source.ts';
import { withVersion } from '../../server/live/live-version.ts';

/** A live source the test changes at will, as the live file would be changed. */
export function changeableLive(changes: LiveChanges = { notice: null, status: null }) {
  let state = withVersion(changes);
  const source: LiveSource & { set(changes: LiveChanges): void } = {
    get: async () => state,
    close() {},
    set(next) {
      state = withVersion(next);
    },
  };
  return source;
}
