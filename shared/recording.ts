import type { PublicEvent, PublicRecording } from './page-data.ts';

/** A chapter of the recording: a segment of the programme that took place, and where it begins in the recording. */
export interface Chapter {
  /** The segment's id, which names its texts and the chapter's address. */
  id: string;
  /** The segment's place in the programme. */
  index: number;
  studioId: string;
  /** Seconds into the recording. */
  start: number;
}

/**
 * The recording's chapters: each segment of the programme that took place (it began before the
 * end), from its start on the day less where the recording begins, so that a delay moves every
 * chapter with the broadcast; one that began before the recording's beginning, from that beginning.
 */
export function recordingChapters(event: PublicEvent, recording: Pick<PublicRecording, 'beginsAtSeconds'>): Chapter[] {
  return event.programme.flatMap(({ id, start, studioId }, index) =>
    start < event.end
      ? [
          {
            id,
            index,
            studioId,
            start: Math.max(0, Math.round((start - event.start) / 1000) - recording.beginsAtSeconds),
          },
        ]
      : [],
  );
}

/** A chapter's address on the landing page: a fragment, which the shipped edges keep out of the key. */
export const chapterFragment = (id: string) => `chapter-${id}`;
