// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readLiveState } from '../../client/live/live-answer.ts';
import { forgetProviders } from '../../client/embed-consent.ts';
import { API_PATHS } from '../../shared/api.ts';
import type { LiveState } from '../../shared/live-state.ts';
import { click, content, renderApp } from '../helpers/render-client.tsx';
import { liveState, serveLiveStates } from '../helpers/live-answers.ts';

/**
 * An open page swaps the stream for the backup the live state names, in place and behind the same
 * placeholder: a visitor who has not clicked sees the placeholder for the backup (nothing loaded
 * from the provider), one who has gets the backup's player without clicking again.
 */
const BACKUP = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?controls=0&rel=0';
const RENDERED = liveState('a', '2027-03-18T08:00:00.000Z');
const SWITCHED: LiveState = {
  ...RENDERED,
  version: 'b',
  updated: '2027-03-18T08:05:00.000Z',
  stream: { ...content.public.video, embedUrl: BACKUP, watchUrl: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' },
};
const BACK: LiveState = { ...RENDERED, version: 'c', updated: '2027-03-18T08:10:00.000Z' };

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const video = () => document.querySelector('#rsvp .embed')!;
const frame = () => video().querySelector('iframe');
const watchLink = () => video().querySelector('.embed-placeholder__link')?.getAttribute('href');
const playerOf = (src: string) => {
  const url = new URL(src);
  return `${url.origin}${url.pathname}`;
};

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  vi.setSystemTime(Date.UTC(2027, 2, 1));
  localStorage.clear();
});
afterEach(() => {
  act(() => forgetProviders());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a backup stream on an open page', () => {
  it('replaces the placeholder’s stream for a visitor who has not clicked, loading nothing', async () => {
    const fetchLive = serveLiveStates(SWITCHED, BACK);
    const { root } = renderApp({ language: 'en', live: RENDERED, livePollSeconds: 30 });
    const button = video().querySelector('button');
    expect(watchLink()).toBe(content.public.video.watchUrl);

    await advance(30_000);
    expect(watchLink()).toBe('https://www.youtube.com/watch?v=aqz-KE-bpKQ');
    expect(frame()).toBeNull();
    // The same placeholder, its picture and button kept: nothing moves, nothing asks the provider.
    expect(video().querySelector('button')).toBe(button);
    expect(video().querySelector('img')!.getAttribute('src')).toBe(content.public.video.poster!.src);
    expect(fetchLive.mock.calls.map(([address]) => address)).toEqual([API_PATHS.live]);

    // A click now plays the backup.
    click(video().querySelector('button'));
    expect(playerOf(frame()!.getAttribute('src')!)).toBe('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ');
    act(() => root.unmount());
  });

  it('swaps the player of a visitor who has clicked for the backup’s, asked to start, and back again', async () => {
    serveLiveStates(SWITCHED, BACK);
    const { root } = renderApp({ language: 'es', live: RENDERED, livePollSeconds: 30 });
    click(video().querySelector('button'));
    const before = frame()!;
    expect(playerOf(before.getAttribute('src')!)).toBe(playerOf(content.public.video.embedUrl));

    await advance(30_000);
    const after = frame()!;
    // A new frame, not the old one navigated: the visitor's history gains no entry.
    expect(after).not.toBe(before);
    const src = new URL(after.getAttribute('src')!);
    expect(playerOf(src.href)).toBe('https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ');
    expect(Object.fromEntries(src.searchParams)).toMatchObject({ controls: '0', autoplay: '1', hl: 'es' });
    expect(video().querySelector('button')).toBeNull();

    await advance(30_000);
    expect(playerOf(frame()!.getAttribute('src')!)).toBe(playerOf(content.public.video.embedUrl));
    act(() => root.unmount());
  });

  it('is read from the server’s answer only in the shape the server forms it', () => {
    expect(readLiveState(JSON.parse(JSON.stringify(SWITCHED)))).toEqual(SWITCHED);
    // A replica of the release before backup streams names none.
    const { stream: _, ...older } = RENDERED;
    expect(readLiveState(older)).toEqual(RENDERED);
    const stream = SWITCHED.stream!;
    for (const broken of [
      { ...stream, embedUrl: 'javascript:alert(1)' },
      { ...stream, watchUrl: 42 },
      { ...stream, provider: { ...stream.provider, load: 'never' } },
      { ...stream, poster: { srcset: 'x.jpg 1w' } },
      'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
    ])
      expect(readLiveState({ ...SWITCHED, stream: broken })).toBeNull();
  });
});
