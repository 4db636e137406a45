import { createHash } from 'node:crypto';
import type { LiveState } from '../../shared/live-state.ts';
import type { LiveChanges } from '../content/live-file.ts';

/**
 * The live state with its version and its time: the version a hash of what it says, so that every
 * replica names the same notice, status, times, stream and recording alike, and any change of a word or a minute gives a new one.
 */
export function withVersion(changes: LiveChanges, updated: Date): LiveState {
  const notice = changes.notice && {
    level: changes.notice.level,
    text: Object.fromEntries(Object.entries(changes.notice.text).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  const version = createHash('sha256')
    .update(
      JSON.stringify([
        notice,
        changes.status,
        ...streamPart(changes),
        ...schedulePart(changes),
        ...recordingPart(changes),
      ]),
    )
    .digest('base64url')
    .slice(0, 16);
  return {
    version,
    updated: updated.toISOString(),
    notice,
    status: changes.status,
    schedule: changes.schedule,
    stream: changes.stream,
    recording: changes.recording,
  };
}

/** The recording's part of the version: none without one, as for the stream; named, so that it is told from a stream. */
function recordingPart({ recording }: LiveChanges): unknown[] {
  return recording ? [{ recording }] : [];
}

/** The day's times' part of the version: none where the content file's stand, as for the stream. */
function schedulePart({ schedule }: LiveChanges): unknown[] {
  return schedule ? [[schedule.start, schedule.end]] : [];
}

/**
 * A backup stream's part of the version: none without one, so that a state without a stream keeps
 * the version it had before there were streams (replicas of either release name it alike).
 */
function streamPart({ stream }: LiveChanges): unknown[] {
  return stream ? [stream] : [];
}

/**
 * The state's entity tag (before its coding's suffix): its version and its time. The time too,
 * since it is in the body: two replicas that read the same file at other times (a ConfigMap's
 * copy on each node) send other bytes, which one strong tag must not name.
 */
export function liveEntityTag(state: LiveState): string {
  return `${state.version}.${Date.parse(state.updated).toString(36)}`;
}
