// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { MINUTE_MS, SECOND_MS } from '../../shared/event-clock.ts';
import type { LiveState } from '../../shared/live-state.ts';
import { content, dictionary, NO_LIVE_STATE, renderApp } from '../helpers/render-client.tsx';
import { serveLiveStates } from '../helpers/live-answers.ts';

/**
 * An open page takes the live state's times in place: a delay holds the countdown back and moves
 * the hero's times and the play button's words; an early end closes the broadcast at the new end.
 */
const START = content.public.event.start;
const END = content.public.event.end;
const form = liveRulesOf(content).event!.form;
const DELAYED: LiveState = {
  version: 'delayed',
  updated: '2027-03-18T16:50:00.000Z',
  notice: null,
  status: null,
  schedule: form(new Date(START + 15 * MINUTE_MS), new Date(END)),
  stream: null,
};
const ENDED_EARLY: LiveState = {
  ...DELAYED,
  version: 'ended-early',
  updated: '2027-03-18T17:20:00.000Z',
  schedule: form(new Date(START + 15 * MINUTE_MS), new Date(START + 25 * MINUTE_MS)),
};
const en = dictionary('en');

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const phase = () => document.querySelector('.hero')!.getAttribute('data-event-phase');
const countdown = () => document.querySelector('[data-testid="countdown"]')?.textContent;
const heroTimes = () => document.querySelector('.hero__when')!.textContent;

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('an open page following the live state’s times', () => {
  it('counts down to a delayed start, shows the new times, and closes at an early end', async () => {
    vi.setSystemTime(START - 2 * MINUTE_MS);
    serveLiveStates(DELAYED, DELAYED, ENDED_EARLY);
    renderApp({ language: 'en', live: NO_LIVE_STATE, livePollSeconds: 30 });
    const planned = heroTimes();
    expect(planned).toContain('18:00');
    expect(countdown()).toBe('Starts in 2 min');

    await advance(30 * SECOND_MS);
    expect(heroTimes()).toBe(`${DELAYED.schedule!.display.en!.date} · ${DELAYED.schedule!.display.en!.time}`);
    expect(heroTimes()).toContain('18:15');
    expect(countdown()).toBe('Starts in 16 min 30 s');
    expect(document.querySelector('.section--video')!.textContent).toContain('18:15');

    // The planned start passes: the page still counts down, and goes live at the new start.
    await advance(2 * MINUTE_MS);
    expect(phase()).toBe('before');
    await advance(15 * MINUTE_MS);
    expect(phase()).toBe('live');

    // The third answer, long since taken, ends the broadcast early, at 17:25 UTC.
    await advance(9 * MINUTE_MS);
    expect(phase()).toBe('live');
    await advance(MINUTE_MS);
    expect(phase()).toBe('after');
    expect(document.querySelector('[role="status"]')!.textContent).toBe(en.hero.ended);
  });
});
