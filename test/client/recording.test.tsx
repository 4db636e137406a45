// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readLiveState } from '../../client/live/live-answer.ts';
import { forgetProviders } from '../../client/embed-consent.ts';
import { API_PATHS } from '../../shared/api.ts';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import type { LiveState } from '../../shared/live-state.ts';
import { click, content, dictionary, renderApp } from '../helpers/render-client.tsx';
import { editedContent } from '../helpers/content-file.ts';
import { liveState, serveLiveStates } from '../helpers/live-answers.ts';

/**
 * After the end an open page shows the recording the live state names, in the stream's place and
 * behind the same placeholder: nothing reaches the provider before a click, and a player the
 * visitor already loaded is not interrupted, by the end or by the recording.
 */
const END = content.public.event.end;
const RECORDING = 'https://www.youtube-nocookie.com/embed/recording01';
const ENDED = liveState('ended', '2027-03-18T20:31:00.000Z');
const NAMED: LiveState = {
  ...ENDED,
  version: 'named',
  updated: '2027-03-18T21:00:00.000Z',
  recording: {
    ...content.public.video,
    embedUrl: RECORDING,
    watchUrl: 'https://www.youtube.com/watch?v=recording01',
    beginsAtSeconds: 270,
  },
};

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const video = () => document.querySelector('#rsvp .embed')!;
const frame = () => video().querySelector('iframe');
const watchLink = () => video().querySelector('.embed-placeholder__link')?.getAttribute('href');
const closed = () => video().querySelector('.embed-placeholder__closed')?.textContent ?? null;
const intro = () => document.querySelector('[data-testid="stream-intro"]')!.textContent;
const playerOf = (src: string) => {
  const url = new URL(src);
  return `${url.origin}${url.pathname}`;
};
const en = dictionary('en');

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  vi.setSystemTime(END + 30 * MINUTE_MS);
  localStorage.clear();
});
afterEach(() => {
  act(() => forgetProviders());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the recording on a page open at the end', () => {
  it('takes the stream’s place once named, behind the same placeholder, loading nothing until a click', async () => {
    const fetchLive = serveLiveStates(NAMED);
    const { root } = renderApp({ language: 'en', live: ENDED, livePollSeconds: 30 });
    // Until then there is nothing to play, and the page says so.
    expect(intro()).toBe(en.video.introAfter);
    expect(closed()).toBe(en.hero.ended);
    expect(video().querySelector('button')).toBeNull();
    expect(watchLink()).toBeUndefined();
    expect(document.querySelector('.hero__stream')).toBeNull();

    await advance(30_000);
    expect(intro()).toBe(en.video.introRecording);
    expect(closed()).toBeNull();
    expect(watchLink()).toBe(NAMED.recording!.watchUrl);
    const button = video().querySelector('button')!;
    expect(button.textContent).toBe(en.video.playRecording.replace('{{provider}}', 'YouTube'));
    expect(document.querySelector('.hero__stream')!.textContent).toBe(en.hero.recording);
    expect(frame()).toBeNull();
    expect(fetchLive.mock.calls.map(([address]) => address)).toEqual([API_PATHS.live]);

    click(button);
    expect(playerOf(frame()!.getAttribute('src')!)).toBe(RECORDING);
    act(() => root.unmount());
  });

  it('says where the content plans one that it will follow there, until it is named', async () => {
    const planned = editedContent((file) => {
      file.video.recordingPlanned = true;
    });
    serveLiveStates(NAMED);
    const { root } = renderApp({ language: 'en', content: planned, live: ENDED, livePollSeconds: 30 });
    expect(intro()).toBe(en.video.introAwaiting);
    expect(closed()).toBe(en.video.recordingSoon);
    expect(video().querySelector('button')).toBeNull();

    await advance(30_000);
    expect(intro()).toBe(en.video.introRecording);
    expect(video().querySelector('button')!.textContent).toBe(
      en.video.playRecording.replace('{{provider}}', 'YouTube'),
    );
    act(() => root.unmount());
  });

  it('cuts neither at the end nor once named a stream the visitor was watching, loaded or not yet', async () => {
    vi.setSystemTime(END - MINUTE_MS);
    serveLiveStates(ENDED, ENDED, NAMED);
    const { root } = renderApp({ language: 'en', live: ENDED, livePollSeconds: 30 });
    click(video().querySelector('button'));
    // Its frame has not fired `load` when the end comes: a player clicked seconds before it.
    const playing = frame()!;

    // The end: the stream lags the studios, and its last words still play.
    await advance(MINUTE_MS + 1000);
    expect(intro()).toBe(en.video.introAfter);
    expect(frame()).toBe(playing);
    expect(closed()).toBeNull();
    expect(playing.getAttribute('title')).toBe(en.video.frameTitle.replace('$t(product)', en.product));

    await advance(30_000);
    expect(frame()).toBe(playing);
    expect(playerOf(playing.getAttribute('src')!)).toBe(playerOf(content.public.video.embedUrl));
    // The section speaks of the player it shows.
    expect(intro()).toBe(en.video.introAfter);
    expect(document.querySelector('.chapters')).toBeNull();
    act(() => root.unmount());
  });

  it('lists the segments that took place as chapters: a click plays the recording from its moment', async () => {
    serveLiveStates(NAMED);
    const { root } = renderApp({ language: 'en', live: ENDED, livePollSeconds: 30 });
    expect(document.querySelector('.chapters')).toBeNull();

    await advance(30_000);
    const { programme, start } = content.public.event;
    const links = [...document.querySelectorAll<HTMLAnchorElement>('.chapters__chapter')];
    expect(links.map((link) => link.querySelector('.chapters__title')!.textContent)).toEqual(
      programme.map(({ id }) => en.programme.segments[id].title),
    );
    // Each leads to the recording at the provider at its moment: 4 min 30 s trimmed off the start.
    const second = (programme[1]!.start - start) / 1000 - 270;
    expect(links[1]!.getAttribute('href')).toBe(`https://www.youtube.com/watch?v=recording01&t=${second}s`);
    expect(links[0]!.getAttribute('href')).toBe('https://www.youtube.com/watch?v=recording01');

    click(links[1]!);
    const src = new URL(frame()!.getAttribute('src')!);
    expect(playerOf(src.href)).toBe(RECORDING);
    expect(src.searchParams.get('start')).toBe(String(second));
    expect(src.searchParams.get('autoplay')).toBe('1');
    expect(links[1]!.getAttribute('aria-current')).toBe('true');
    expect(location.hash).toBe(`#chapter-${programme[1]!.id}`);

    click(links[3]!);
    expect(frame()!.getAttribute('src')).toContain(`start=${(programme[3]!.start - start) / 1000 - 270}`);
    act(() => root.unmount());
  });

  it('opens with the chapter its address names chosen, to play from there at a click, and keeps it', async () => {
    const { programme, start } = content.public.event;
    serveLiveStates({ ...NAMED, version: 'noticed', notice: { level: 'info', text: { de: 'Danke', en: 'Thanks' } } });
    const { root } = renderApp({
      language: 'en',
      live: NAMED,
      path: `/#chapter-${programme[2]!.id}`,
      livePollSeconds: 30,
    });
    const chosen = document.querySelector('.chapters__chapter[aria-current]');
    expect(chosen?.closest('li')?.id).toBe(`chapter-${programme[2]!.id}`);
    expect(frame()).toBeNull();
    click(video().querySelector('button'));
    const playing = frame()!;
    expect(playing.getAttribute('src')).toContain(`start=${(programme[2]!.start - start) / 1000 - 270}`);

    // The address moves on (the hero's button to #rsvp) and the page renders again: the player stays.
    history.replaceState(null, '', '/#rsvp');
    await advance(30_000);
    expect(document.body.textContent).toContain('Thanks');
    expect(frame()).toBe(playing);
    act(() => root.unmount());
  });

  it('is read from the server’s answer only in the shape the server forms it', () => {
    expect(readLiveState(JSON.parse(JSON.stringify(NAMED)))).toEqual(NAMED);
    // A replica of a release before recordings names none.
    const { recording: _, ...older } = ENDED;
    expect(readLiveState(older)).toEqual(ENDED);
    const recording = NAMED.recording!;
    for (const broken of [
      { ...recording, beginsAtSeconds: -1 },
      { ...recording, beginsAtSeconds: '0:04:30' },
      { ...recording, embedUrl: 'javascript:alert(1)' },
      RECORDING,
    ])
      expect(readLiveState({ ...NAMED, recording: broken })).toBeNull();
  });
});
