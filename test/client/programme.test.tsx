// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { MINUTE_MS, SECOND_MS } from '../../shared/event-clock.ts';
import { editedContent } from '../helpers/content-file.ts';
import { content, dictionary, NO_LIVE_STATE, renderApp } from '../helpers/render-client.tsx';
import { liveState, serveLiveStates } from '../helpers/live-answers.ts';

/**
 * The programme in an open page: the segment on air and the next are marked on the event clock,
 * in place and without a request, and the day's times move it.
 */
const { start: START, end: END, programme } = content.public.event;
const en = dictionary('en');
const form = liveRulesOf(content).event!.form;

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const rows = () => [...document.querySelectorAll('[data-testid="programme-segment"]')];
const titles = () => rows().map((row) => row.querySelector('.programme__title')!.textContent);
const marks = () => rows().map((row) => row.querySelector('.programme__mark > .steady__shown')!.textContent);
const onAir = () => rows().filter((row) => row.getAttribute('aria-current') === 'time');
const times = () => rows().map((row) => row.querySelector('time')!.textContent);

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the programme in an open page', () => {
  it('lists every segment in its order with its time, studio and title', () => {
    vi.setSystemTime(START - 2 * MINUTE_MS);
    serveLiveStates(NO_LIVE_STATE);
    renderApp({ language: 'en', live: NO_LIVE_STATE });
    expect(titles()).toEqual(programme.map(({ id }) => en.programme.segments[id as 'welcome'].title));
    expect(times()).toEqual(['18:00', '18:15', '18:55', '19:40', '20:00', '20:45', '21:15']);
    expect(rows()[1]!.querySelector('.programme__studio')!.textContent).toBe('Studio München');
    expect(rows()[1]!.querySelector('time')!.getAttribute('datetime')).toBe('2027-03-18T17:15:00.000Z');
    // Before the start the first segment is next, nothing on air.
    expect(marks()).toEqual([en.programme.next.replace('{{time}}', '18:00'), '', '', '', '', '', '']);
    expect(onAir()).toEqual([]);
  });

  it('moves the marks on the event clock, in place, without a request', async () => {
    vi.setSystemTime(START - 2 * MINUTE_MS);
    const fetchLive = serveLiveStates(NO_LIVE_STATE);
    // No polling: the marks need no answer of the server's.
    renderApp({ language: 'en', live: NO_LIVE_STATE });
    const shown = rows();

    await advance(2 * MINUTE_MS);
    expect(onAir().map((row) => row.querySelector('.programme__title')!.textContent)).toEqual([
      en.programme.segments.welcome.title,
    ]);
    expect(marks().slice(0, 2)).toEqual([en.programme.now, en.programme.next.replace('{{time}}', '18:15')]);

    await advance(programme[1]!.start - START - SECOND_MS);
    expect(onAir()[0]).toBe(rows()[0]);
    await advance(SECOND_MS);
    expect(onAir()[0]).toBe(rows()[1]);
    expect(marks().slice(0, 3)).toEqual(['', en.programme.now, en.programme.next.replace('{{time}}', '18:55')]);

    // The last segment, then none once the broadcast has ended.
    await advance(programme.at(-1)!.start - programme[1]!.start);
    expect(onAir()[0]).toBe(rows().at(-1));
    await advance(END - programme.at(-1)!.start);
    expect(onAir()).toEqual([]);
    expect(marks().every((mark) => mark === '')).toBe(true);
    // The same rows throughout, and nothing asked of the server.
    expect(rows()).toEqual(shown);
    expect(fetchLive).not.toHaveBeenCalled();
  });

  it('follows a delay and an early end in the live state: every segment later, one cut off', async () => {
    vi.setSystemTime(START - 5 * MINUTE_MS);
    const delayed = liveState('delayed', '2027-03-18T16:50:00.000Z', {
      schedule: form(new Date(START + 20 * MINUTE_MS), new Date(END)),
    });
    serveLiveStates(delayed);
    renderApp({ language: 'en', live: NO_LIVE_STATE, livePollSeconds: 30 });
    await advance(30 * SECOND_MS);
    expect(times()).toEqual(['18:20', '18:35', '19:15', '20:00', '20:20', '21:05', '21:35']);
    // The last would start after the end: told, not dropped.
    expect(marks().at(-1)).toBe(en.programme.notTakingPlace);
    expect(rows().at(-1)!.className).toContain('programme__segment--not-taking-place');
    expect(marks()[0]).toBe(en.programme.next.replace('{{time}}', '18:20'));
  });

  it('shows the times of a live state from a replica of the release before the programme, which names none', async () => {
    vi.setSystemTime(START - 5 * MINUTE_MS);
    const schedule = form(new Date(START + 20 * MINUTE_MS), new Date(END));
    const older = liveState('older', '2027-03-18T16:50:00.000Z', {
      schedule: {
        ...schedule,
        display: Object.fromEntries(
          Object.entries(schedule.display).map(([code, { date, time }]) => [code, { date, time }]),
        ),
      },
    });
    serveLiveStates(older);
    renderApp({ language: 'en', live: NO_LIVE_STATE, livePollSeconds: 30 });
    await advance(30 * SECOND_MS);
    expect(times()).toEqual(['18:20', '18:35', '19:15', '20:00', '20:20', '21:05', '21:35']);
  });

  it('says why none of it will be on air for a postponed event, and marks nothing', async () => {
    vi.setSystemTime(START + 30 * MINUTE_MS);
    const postponed = liveState('postponed', '2027-03-18T17:20:00.000Z', { status: 'EventPostponed' });
    serveLiveStates(postponed);
    renderApp({ language: 'en', live: postponed });
    expect(document.querySelector('.section--programme .section__intro')!.textContent).toBe(en.programme.postponed);
    expect(marks().every((mark) => mark === '')).toBe(true);
    expect(onAir()).toEqual([]);
  });

  it('is not there without a programme', () => {
    vi.setSystemTime(START - 2 * MINUTE_MS);
    serveLiveStates(NO_LIVE_STATE);
    renderApp({ language: 'en', live: NO_LIVE_STATE, content: editedContent((file) => delete file.programme) });
    expect(document.querySelector('.section--programme')).toBeNull();
  });
});
