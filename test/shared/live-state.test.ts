import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import { eventWithLive } from '../../shared/live-state.ts';
import { content } from '../helpers/render-client.tsx';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { liveState } from '../helpers/live-answers.ts';

const planned = content.public.event;
const form = liveRulesOf(content).event!.form;
const startsOf = (event: { programme: readonly { start: number }[] }) => event.programme.map(({ start }) => start);

describe('the event with the live state', () => {
  it('keeps the planned programme without times of the day', () => {
    expect(eventWithLive(planned, liveState('a', '2027-03-18T08:00:00.000Z')).programme).toBe(planned.programme);
  });

  it('moves every segment by a delay, and keeps the planned end', () => {
    const delayed = eventWithLive(
      planned,
      liveState('b', '2027-03-18T08:00:00.000Z', {
        schedule: form(new Date(planned.start + 20 * MINUTE_MS), new Date(planned.end)),
      }),
    );
    expect(startsOf(delayed)).toEqual(startsOf(planned).map((start) => start + 20 * MINUTE_MS));
    expect(delayed.programme.map(({ id, studioId }) => [id, studioId])).toEqual(
      planned.programme.map(({ id, studioId }) => [id, studioId]),
    );
    expect(delayed.end).toBe(planned.end);
  });

  it('leaves the segments where they were when only the end moves', () => {
    const ended = eventWithLive(
      planned,
      liveState('c', '2027-03-18T08:00:00.000Z', {
        schedule: form(new Date(planned.start), new Date(planned.start + 60 * MINUTE_MS)),
      }),
    );
    expect(startsOf(ended)).toEqual(startsOf(planned));
    expect(ended.end).toBe(planned.start + 60 * MINUTE_MS);
  });
});
