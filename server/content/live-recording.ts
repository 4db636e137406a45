import type { z } from 'zod';
import type { PublicRecording } from '../../shared/page-data.ts';
import { quoted, type Finding } from './findings.ts';
import { checkLivePlayer, type LiveStreamRules, type StreamField } from './live-stream.ts';
import { broadcastSeconds, recordingFields } from './site-content.ts';

/**
 * The broadcast's recording, named on the day once the provider has it: a player address in the
 * forms of the content file's video, from an origin the page lets frames come from (as a backup
 * stream's), and where the recording was trimmed, the moment of the broadcast it begins at.
 */

export const liveRecordingField = recordingFields
  .nullable()
  .optional()
  .describe(
    'The broadcast’s recording, shown in the stream’s place once the broadcast has ended; remove it (or null) to take it down',
  );

export type LiveRecordingValue = z.infer<typeof liveRecordingField>;

/**
 * Checks a recording whose form the schema took: its player as a backup stream's, and a beginning
 * within the broadcast (`lengthSeconds`, the day's times; null while unknown).
 */
export function checkLiveRecording(
  value: LiveRecordingValue,
  fields: StreamField,
  rules: LiveStreamRules | null,
  lengthSeconds: number | null,
): { recording: PublicRecording | null; problems: Finding[]; warnings: Finding[] } {
  if (!value) return { recording: null, problems: [], warnings: [] };
  const player = checkLivePlayer(value.embedUrl, ['recording', 'embedUrl'], fields, rules);
  const beginsAtSeconds = value.beginsAt === undefined ? 0 : broadcastSeconds(value.beginsAt);
  const problems = [...player.problems];
  if (lengthSeconds !== null && beginsAtSeconds >= lengthSeconds) {
    const path = ['recording', 'beginsAt'];
    problems.push({
      line: fields.lineOf(path),
      message: `${fields.nameOf(path)}${quoted(value.beginsAt)} is not within the broadcast, which is ${clock(lengthSeconds)} long: the recording begins at a moment of the broadcast`,
    });
  }
  if (problems.length > 0 || !player.stream) return { recording: null, problems, warnings: player.warnings };
  return { recording: { ...player.stream, beginsAtSeconds }, problems, warnings: player.warnings };
}

/** Seconds as the team writes a moment of the broadcast: 3:30:00. */
function clock(seconds: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}
