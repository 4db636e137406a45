import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followLiveState, type LivePollOptions } from '../../client/live/poll-live-state.ts';
import { liveStateAsker, readLiveState } from '../../client/live/live-answer.ts';
import type { LiveState } from '../../shared/live-state.ts';
import { liveState } from '../helpers/live-answers.ts';

/**
 * How an open page follows the live state: when it asks (the interval, shortened at random by up
 * to half; never while hidden; at once when shown again), and which answers it takes.
 */
const SHOWN = liveState('a', '2027-03-18T08:00:00.000Z');
const NEWER = liveState('b', '2027-03-18T08:05:00.000Z', {
  notice: { level: 'warning', text: { de: 'Später' } },
  status: 'EventPostponed',
});

const SCHEDULE = {
  start: Date.UTC(2027, 2, 18, 17, 15),
  end: Date.UTC(2027, 2, 18, 20, 30),
  utcOffsetMinutes: { start: 60, end: 60 },
  display: { de: { date: 'Donnerstag, 18. März 2027', time: '18:15–21:30 Uhr MEZ' } },
};

/** A tab whose visibility the test sets. */
function fakeTab() {
  const listeners = new Set<() => void>();
  const tab = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    show(state: DocumentVisibilityState) {
      tab.visibilityState = state;
      for (const listener of listeners) listener();
    },
  };
  return tab;
}

let stop: () => void = () => {};
function follow(options: Partial<LivePollOptions> & { answers?: (LiveState | null)[] } = {}) {
  const tab = fakeTab();
  const asks: number[] = [];
  const applied: LiveState[] = [];
  const answers = options.answers ?? [];
  stop = followLiveState(SHOWN, {
    intervalMs: 30_000,
    ask: async () => {
      asks.push(Date.now());
      return answers.shift() ?? null;
    },
    apply: (state) => applied.push(state),
    page: tab as unknown as LivePollOptions['page'],
    random: () => 0.999,
    ...options,
  });
  return { tab, asks, applied };
}
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => {
  stop();
  vi.useRealTimers();
});

describe('the live state’s asks', () => {
  it('come every interval at most, each wait shortened at random by up to half', async () => {
    const longest = follow({ random: () => 0.999 });
    await advance(29_900);
    expect(longest.asks).toEqual([]);
    await advance(100);
    expect(longest.asks).toHaveLength(1);
    await advance(30_000);
    expect(longest.asks).toHaveLength(2);
    stop();

    vi.setSystemTime(0);
    const shortest = follow({ random: () => 0 });
    await advance(14_999);
    expect(shortest.asks).toEqual([]);
    await advance(1);
    expect(shortest.asks).toEqual([15_000]);
    await advance(15_000);
    expect(shortest.asks).toEqual([15_000, 30_000]);
  });

  it('draw a new wait each time, within half the interval and the interval', async () => {
    const draws = [0.2, 0.9, 0.5];
    const { asks } = follow({ intervalMs: 10_000, random: () => draws.shift() ?? 0 });
    await advance(60_000);
    expect(asks.slice(0, 4)).toEqual([6000, 6000 + 9500, 6000 + 9500 + 7500, 6000 + 9500 + 7500 + 5000]);
  });

  it('stop while the tab is hidden, and come at once when it shows again', async () => {
    const { tab, asks } = follow();
    tab.show('hidden');
    await advance(10 * 60_000);
    expect(asks).toEqual([]);
    tab.show('visible');
    await advance(0);
    expect(asks).toEqual([10 * 60_000]);
    // Then every interval again.
    await advance(30_000);
    expect(asks).toHaveLength(2);
  });

  it('come no sooner than 5 s after the last one when the visitor switches tabs back and forth', async () => {
    const { tab, asks } = follow({ random: () => 0 });
    await advance(15_000);
    expect(asks).toEqual([15_000]);
    await advance(1000);
    tab.show('hidden');
    tab.show('visible');
    await advance(3999);
    expect(asks).toEqual([15_000]);
    await advance(1);
    expect(asks).toEqual([15_000, 20_000]);
  });

  it('do not start while the page is opened in a hidden tab', async () => {
    const tab = fakeTab();
    tab.visibilityState = 'hidden';
    const asks: number[] = [];
    stop = followLiveState(SHOWN, {
      intervalMs: 30_000,
      ask: async () => (asks.push(Date.now()), null),
      apply: () => {},
      page: tab as unknown as LivePollOptions['page'],
    });
    await advance(5 * 60_000);
    expect(asks).toEqual([]);
    tab.show('visible');
    await advance(0);
    expect(asks).toEqual([5 * 60_000]);
  });

  it('end when stopped', async () => {
    const { asks } = follow();
    stop();
    await advance(5 * 60_000);
    expect(asks).toEqual([]);
  });
});

describe('the answers', () => {
  it('keep coming after an ask that threw', async () => {
    const answers: (() => Promise<LiveState | null>)[] = [
      () => Promise.reject(new Error('offline')),
      async () => NEWER,
    ];
    const { applied } = follow({ ask: () => answers.shift()!() });
    await advance(60_000);
    expect(applied).toEqual([NEWER]);
  });

  it('apply a newer state, once', async () => {
    const { applied } = follow({ answers: [NEWER, NEWER] });
    await advance(60_000);
    expect(applied).toEqual([NEWER]);
  });

  it('keep the state shown when nothing changed or the ask failed, and ask again at the next tick', async () => {
    const { asks, applied } = follow({ answers: [null, null, NEWER] });
    await advance(60_000);
    expect(applied).toEqual([]);
    await advance(30_000);
    expect(asks).toHaveLength(3);
    expect(applied).toEqual([NEWER]);
  });

  it('never step back to a state older than the one shown, as a lagging replica may answer', async () => {
    const older = { ...NEWER, version: 'c', updated: '2027-03-18T07:59:59.999Z' };
    const sameTime = { ...NEWER, version: 'd', updated: SHOWN.updated };
    const { applied } = follow({ answers: [NEWER, older, { ...SHOWN }, sameTime] });
    await advance(4 * 30_000);
    // SHOWN again, dated before NEWER, is older now; one as old as the state shown is taken.
    expect(applied).toEqual([NEWER]);
    stop();
    const second = follow({ answers: [sameTime, older] });
    await advance(2 * 30_000);
    expect(second.applied).toEqual([sameTime]);
  });
});

describe('asking the server', () => {
  const ok = (body: unknown, etag = '"b.x-br"') =>
    new Response(JSON.stringify(body), { status: 200, headers: { ETag: etag, 'Content-Type': 'application/json' } });

  it('is conditional once it has answered, past the browser’s cache, and a 304 is nothing new', async () => {
    const fetchLive = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(ok(NEWER))
      .mockResolvedValueOnce(new Response(null, { status: 304 }));
    const ask = liveStateAsker(fetchLive);
    expect(await ask()).toEqual(NEWER);
    expect(fetchLive).toHaveBeenNthCalledWith(1, '/api/live', { cache: 'no-store', headers: {} });
    expect(await ask()).toBeNull();
    expect(fetchLive).toHaveBeenNthCalledWith(2, '/api/live', {
      cache: 'no-store',
      headers: { 'If-None-Match': '"b.x-br"' },
    });
  });

  it('takes a failure, an error status or a body that is no live state as nothing new', async () => {
    for (const answer of [
      Promise.reject(new TypeError('Failed to fetch')),
      Promise.resolve(new Response('{"error":"x"}', { status: 503 })),
      Promise.resolve(new Response('<html>', { status: 200 })),
      Promise.resolve(ok({ ...NEWER, status: 'EventDelayed' })),
    ])
      expect(await liveStateAsker(() => answer)()).toBeNull();
  });

  it('reads a live state, and nothing else, from an answer', () => {
    expect(readLiveState(NEWER)).toEqual(NEWER);
    expect(readLiveState({ ...NEWER, schedule: SCHEDULE })).toEqual({ ...NEWER, schedule: SCHEDULE });
    // A server of the release before answers without times.
    const { schedule: _none, ...before } = NEWER;
    expect(readLiveState(before)).toEqual(NEWER);
    expect(readLiveState(SHOWN)).toEqual(SHOWN);
    for (const broken of [
      null,
      [],
      'a',
      { ...NEWER, version: 1 },
      { ...NEWER, updated: 'yesterday' },
      { ...NEWER, updated: undefined },
      { ...NEWER, status: 'EventDelayed' },
      { ...NEWER, status: undefined },
      { ...NEWER, notice: { level: 'urgent', text: { de: 'x' } } },
      { ...NEWER, notice: { level: 'info', text: { de: 1 } } },
      { ...NEWER, notice: { level: 'info', text: null } },
      { ...NEWER, notice: undefined },
      { ...NEWER, schedule: { start: 1, end: 2 } },
      { ...NEWER, schedule: { ...SCHEDULE, start: '18:15' } },
      { ...NEWER, schedule: { ...SCHEDULE, display: { de: { date: 'Do' } } } },
    ])
      expect(readLiveState(broken)).toBeNull();
  });
});
