import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/harness/server-process.ts';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import { dictionary } from '../helpers/render-client.tsx';
import { contentFileWith, eventFieldsAt, moveEvent, wallClockTime } from '../helpers/event-times.ts';
import type { Visitor } from './driver/visitor.ts';
import { FakeProvider } from './fake-provider.ts';
import { problemsOf, waitForHydration } from './journey.ts';
import { throughTheFile, throughTheRow, type LiveChannel } from './live-channels.ts';
import { keepScreenshot } from './screenshots.ts';
import { setUpBrowsers } from './site.ts';

/**
 * The event team ends the broadcast, then names its recording, once through the live file and once
 * through the backend's row: a tab open at the end that has not clicked says the recording will
 * follow, then turns to its placeholder without a reload, asking the provider for nothing until
 * its visitor clicks; a tab whose visitor loaded the stream's player keeps it, uninterrupted by
 * the end and by the recording; a tab opened then is served
 * the recording, and one opened at a chapter's address has that chapter chosen; choosing a chapter
 * asks the provider for the recording from its moment. The players are a stand-in provider on
 * loopback (./fake-provider.ts).
 */
const browsers = setUpBrowsers();
const STREAM_ID = 'M7lc1UVf-VE';
const RECORDING_ID = 'recording01';
/** What the live notice's bound allows with the channels' one-second intervals, with room for a slow machine. */
const FOLLOW_MS = 15_000;

let provider: FakeProvider;
let contentPath: string;
let timeZone: string;
beforeAll(async () => {
  provider = await FakeProvider.start();
  // A broadcast of two and a half hours, on air for an hour: the team ends it early.
  const start = Math.floor((Date.now() - 60 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS;
  const fields = eventFieldsAt(start, 150);
  timeZone = fields.timeZone;
  contentPath = contentFileWith((file) => {
    moveEvent(file, fields);
    file.video.embedUrl = `${provider.origin}/embed/${STREAM_ID}?controls=0&rel=0&playsinline=1`;
    file.video.recordingPlanned = true;
  });
});
afterAll(() => provider?.close());

const recordingUrl = () => `${provider.origin}/embed/${RECORDING_ID}`;
const watchLink = (tab: Visitor) =>
  tab.evaluate(() => document.querySelector('#rsvp .embed-placeholder__link')?.getAttribute('href') ?? null);
const playerRequests = (id: string) => provider.requests.filter((request) => request.path.startsWith(`/embed/${id}`));

async function openTab(server: RunningServer, width: number): Promise<Visitor> {
  const visitor = await browsers.visitor(server.url, { language: 'en', viewport: { width, height: 844 } });
  // In front, as a tab just opened is: the page starts its app once it has painted.
  await visitor.show();
  await visitor.goto('/');
  await waitForHydration(visitor);
  await visitor.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  return visitor;
}

describe.each([
  ['the live file', throughTheFile],
  ["the backend's row", throughTheRow],
] as const)(`the recording named through %s, in ${browsers.engine}`, (channelName, open) => {
  let channel: LiveChannel;
  beforeAll(async () => {
    channel = await open({ CONTENT_PATH: contentPath });
  }, 60_000);
  afterAll(() => channel?.stop());

  it('takes the stream’s place in a tab open at the end, loads on a click only, and leaves a playing player be', async () => {
    provider.reset();
    const waiting = await openTab(channel.server, 390);
    const playing = await openTab(channel.server, 1280);
    await playing.show();
    await playing.click('#rsvp .embed-placeholder__load');
    await expect.poll(() => playerRequests(STREAM_ID).length, { timeout: FOLLOW_MS }).toBe(1);
    expect(await watchLink(waiting)).toBe(`${provider.origin}/watch?v=${STREAM_ID}`);

    // The end, at this minute: nothing to play until the recording is named, which the content
    // plans; the stream a visitor is watching plays on.
    const endTime = wallClockTime(Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS, timeZone);
    channel.write({ endTime });
    const en = dictionary('en');
    await waiting.show();
    await waiting.waitFor(
      (soon) => document.querySelector('#rsvp .embed-placeholder__closed')?.textContent === soon,
      en.video.recordingSoon,
      { timeout: FOLLOW_MS, what: 'the recording to follow' },
    );
    expect(await waiting.text('[data-testid="stream-intro"]')).toBe(en.video.introAwaiting);
    expect(await waiting.count('#rsvp .embed-placeholder__load, .hero__stream')).toBe(0);
    await playing.show();
    await playing.waitFor(() => document.querySelector('.hero')?.getAttribute('data-event-phase') === 'after', null, {
      timeout: FOLLOW_MS,
      what: 'the end in the playing tab',
    });
    expect(await playing.count('#rsvp iframe')).toBe(1);

    channel.write({ endTime, recording: { embedUrl: recordingUrl(), beginsAt: '0:04:30' } });
    await waiting.show();
    await waiting.waitFor(
      (watch) => document.querySelector('#rsvp .embed-placeholder__link')?.getAttribute('href') === watch,
      `${provider.origin}/watch?v=${RECORDING_ID}`,
      { timeout: FOLLOW_MS, what: "the recording's placeholder" },
    );
    expect(await waiting.text('#rsvp .embed-placeholder__load')).toBe('Play the recording – loads YouTube');
    expect(await waiting.text('.hero__stream')).toBe('Watch the recording');
    expect(await waiting.count('#rsvp iframe')).toBe(0);
    if (channelName === 'the live file') {
      await waiting.evaluate(() => document.querySelector('#rsvp')!.scrollIntoView({ behavior: 'instant' }));
      await keepScreenshot(waiting, `recording-named-en-390x844-${browsers.engine}.png`);
    }
    // Nothing went to the provider for the recording before a click, and the playing tab, once it
    // has the recording (its hero leads there), kept its player.
    expect(playerRequests(RECORDING_ID)).toEqual([]);
    await playing.show();
    await playing.waitFor(() => document.querySelector('.hero__stream')?.textContent === 'Watch the recording', null, {
      timeout: FOLLOW_MS,
      what: 'the recording in the playing tab',
    });
    expect(await playing.count('#rsvp iframe')).toBe(1);
    expect(await playing.evaluate(() => document.querySelector('#rsvp iframe')!.getAttribute('src'))).toContain(
      `/embed/${STREAM_ID}?`,
    );

    // A chapter plays the recording from its moment: the provider is asked for that start, which
    // the chapter's link without scripts names too.
    const chapter = await waiting.evaluate(() => {
      const item = document.querySelectorAll('.chapters li')[1]!;
      return { fragment: item.id, watch: item.querySelector('a')!.getAttribute('href')! };
    });
    const moment = new URL(chapter.watch).searchParams.get('t');
    expect(moment).toMatch(/^[1-9]\d*s$/);
    await waiting.click('.chapters li:nth-child(2) a');
    await expect.poll(() => playerRequests(RECORDING_ID).length, { timeout: FOLLOW_MS }).toBe(1);
    const asked = new URL(playerRequests(RECORDING_ID)[0]!.path, provider.origin).searchParams;
    expect(`${asked.get('start')}s`).toBe(moment);
    expect(asked.get('autoplay')).toBe('1');
    expect(await waiting.evaluate(() => location.hash)).toBe(`#${chapter.fragment}`);

    // A tab opened now is served the recording; one opened at a chapter's address has it chosen.
    const later = await openTab(channel.server, 390);
    expect(await watchLink(later)).toBe(`${provider.origin}/watch?v=${RECORDING_ID}`);
    const shared = await browsers.visitor(channel.server.url, {
      language: 'en',
      viewport: { width: 390, height: 844 },
    });
    // In front, as a tab just opened is: the page starts its app once it has painted.
    await shared.show();
    await shared.goto(`/#${chapter.fragment}`);
    await waitForHydration(shared);
    await shared.waitFor(
      (fragment) => document.querySelector('.chapters__chapter[aria-current]')?.closest('li')?.id === fragment,
      chapter.fragment,
      { timeout: FOLLOW_MS, what: 'the chapter the address names' },
    );
    expect(playerRequests(RECORDING_ID)).toHaveLength(1);

    for (const tab of [waiting, playing]) {
      expect(await tab.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      expect(await problemsOf(tab)).toEqual([]);
    }
    channel.write({});
  });
});
