import { createHash } from 'node:crypto';
import type { LiveState } from '../../shared/live-state.ts';
import type { LiveChanges } from '../content/live-file.ts';

/**
 * The live state with its version: a hash of what it says, so that every replica names the same
 * notice and status alike (and gives the same ETag), and any change of a word gives a new one.
 */
export function withVersion(changes: LiveChanges): LiveState {
  const notice = changes.notice && {
    level: changes.notice.level,
    text: Object.fromEntries(Object.entries(changes.notice.text).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  const version = createHash('sha256')
    .update(JSON.stringify([notice, changes.status]))
    .digest('base64url')
    .slice(0, 16);
  return { version, notice, status: changes.status };
}
