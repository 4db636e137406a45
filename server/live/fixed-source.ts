import type { LiveState } from '../../shared/live-state.ts';
import { NO_LIVE_CHANGES, type LiveChanges } from '../content/live-file.ts';
import type { LiveSource } from './live-source.ts';
import { withVersion } from './live-version.ts';

/** A live state that never changes (dated at the epoch): none by default, for an app built without a live file. */
export function fixedLiveSource(changes: LiveChanges = NO_LIVE_CHANGES): LiveSource {
  const state: LiveState = withVersion(changes, new Date(0));
  return { get: async () => state, current: () => state, close() {} };
}
