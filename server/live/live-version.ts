import { createHash } from 'node:crypto';
import type { LiveState } from '../../shared/live-state.ts';
import type { LiveChanges } from '../content/live-file.ts';

/** The `updated` of a state no one has changed: no live file, no row yet. */
export const NEVER_UPDATED = new Date(0).toISOString();

/**
 * The live state with its version: a hash of what it says, so that every replica names the same
 * notice and status alike (and gives the same ETag), and any change of a word gives a new one.
 * `updated` says when it changed; it is no part of what the state says.
 */
export function withVersion(changes: LiveChanges, updated: string): LiveState {
  const notice = changes.notice && {
    level: changes.notice.level,
    text: Object.fromEntries(Object.entries(changes.notice.text).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  const version = createHash('sha256')
    .update(JSON.stringify([notice, changes.status]))
    .digest('base64url')
    .slice(0, 16);
  return { version, notice, status: changes.status, updated };
}
