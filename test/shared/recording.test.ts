import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import type { PublicEvent } from '../../shared/page-data.ts';
import { recordingChapters } from '../../shared/recording.ts';

/** The recording's chapters: the segments that took place, where each begins in the recording. */
const START = Date.UTC(2027, 2, 18, 17, 0);
const event = (start: number, end: number): PublicEvent => ({
  start,
  end,
  timeZone: 'Europe/Berlin',
  status: 'EventScheduled',
  utcOffsetMinutes: { start: 60, end: 60 },
  recordingUrl: null,
  programme: [
    { id: 'welcome', start, studioId: 'vienna' },
    { id: 'keynote', start: start + 15 * MINUTE_MS, studioId: 'munich' },
    { id: 'awards', start: start + 60 * MINUTE_MS, studioId: 'zurich' },
  ],
});

describe('the recording’s chapters', () => {
  it('are the segments, from their start in the broadcast', () => {
    expect(recordingChapters(event(START, START + 90 * MINUTE_MS), { beginsAtSeconds: 0 })).toEqual([
      { id: 'welcome', index: 0, studioId: 'vienna', start: 0 },
      { id: 'keynote', index: 1, studioId: 'munich', start: 900 },
      { id: 'awards', index: 2, studioId: 'zurich', start: 3600 },
    ]);
  });

  it('move back by where the recording was trimmed, one that began before it from its beginning', () => {
    expect(
      recordingChapters(event(START, START + 90 * MINUTE_MS), { beginsAtSeconds: 270 }).map(({ start }) => start),
    ).toEqual([0, 630, 3330]);
  });

  it('leave out a segment the end cut off', () => {
    // An early end at 17:45 UTC, before the awards.
    expect(recordingChapters(event(START, START + 45 * MINUTE_MS), { beginsAtSeconds: 0 }).map(({ id }) => id)).toEqual(
      ['welcome', 'keynote'],
    );
  });
});
