import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../scripts/harness/server-process.ts';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import { contentFileForEvent, eventFieldsAt, wallClockTime } from '../helpers/event-times.ts';
import { parseUtcDateTime, readSingleEvent } from '../helpers/icalendar.ts';
import { jsonLdOf } from '../helpers/html.ts';
import { LANGUAGES, type SampleLanguage } from '../helpers/languages.ts';
import { dictionary } from '../helpers/render-client.tsx';
import type { BroadcastMoment } from '../../shared/broadcast-texts.ts';
import {
  broadcastTextsAt,
  broadcastTextsOf,
  displayOf,
  expectJsonLdAsServed,
  headAndCalendarAt,
  headAndCalendarOf,
} from './broadcast-texts.ts';
import type { Visitor } from './driver/visitor.ts';
import { isSameDocument, openTab, throughTheFile, throughTheRow, type LiveChannel } from './live-channels.ts';
import { problemsOf } from './journey.ts';
import { keepScreenshot } from './screenshots.ts';
import { setUpBrowsers } from './site.ts';

/**
 * The day's times, tried as the event team would: the broadcast planned to have begun half an hour
 * ago is not on air yet, so the team moves the start a quarter of an hour past now; later it ends
 * the broadcast early, at this minute. Once through the live file and once through the backend's
 * row, with tabs open in the three languages: every tab follows in place, every text of the
 * broadcast with it, and the calendar file and the JSON-LD say the new times. How long each tab took is printed per engine.
 */
const browsers = setUpBrowsers();
const FOLLOW_MS = 15_000;

const now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
const PLANNED_START = now - 30 * MINUTE_MS;
const PLAN = eventFieldsAt(PLANNED_START, 180);
/** Three quarters of an hour after the planned start: a quarter of an hour from now, at least. */
const DELAYED_START = PLANNED_START + 45 * MINUTE_MS;

/** An instant on the event's clock, as the team writes it: "18:15". */
const wallTime = (instant: number) => wallClockTime(instant, PLAN.timeZone);

/** Shows the tab, as its visitor would, and waits until its hero says `phase`: how long that took after `since`. */
async function untilPhase(visitor: Visitor, phase: string, since: number): Promise<number> {
  await visitor.show();
  await visitor.waitFor((p) => document.querySelector('.hero')?.getAttribute('data-event-phase') === p, phase, {
    timeout: FOLLOW_MS,
    what: `the hero to say "${phase}"`,
  });
  return Date.now() - since;
}

/**
 * Every text of the broadcast in the tab says what holds at `moment`, on the day's times its hero
 * shows, and its JSON-LD what the server's page says now.
 */
async function expectTextsAt(
  visitor: Visitor,
  lng: SampleLanguage,
  moment: BroadcastMoment,
  server: RunningServer,
): Promise<void> {
  expect(await broadcastTextsOf(visitor)).toEqual(await broadcastTextsAt(lng, moment, await displayOf(visitor)));
  await expectJsonLdAsServed(visitor, server.url, lng);
}

async function calendarEvent(server: RunningServer) {
  const res = await fetch(`${server.url}/event.ics?lng=en`);
  return readSingleEvent(Buffer.from(await res.arrayBuffer())).event;
}

async function jsonLd(server: RunningServer) {
  return jsonLdOf(await (await fetch(`${server.url}/`, { headers: { Cookie: 'selectedLanguage=en' } })).text());
}

describe.each([
  ['the live file', throughTheFile],
  ["the backend's row", throughTheRow],
] as const)(`the day's times, through %s, in ${browsers.engine}`, (channelName, open) => {
  let channel: LiveChannel;
  const tabs = {} as Record<SampleLanguage, Visitor>;
  beforeAll(async () => {
    channel = await open({ CONTENT_PATH: contentFileForEvent(PLANNED_START, 180) });
    for (const lng of LANGUAGES) tabs[lng] = await openTab(browsers, channel.server, lng);
  }, 90_000);
  afterAll(() => channel?.stop());

  it('every open tab follows a delayed start and an early end, and so do the calendar file and the JSON-LD', async () => {
    for (const lng of LANGUAGES) {
      expect(await tabs[lng].attribute('.hero', 'data-event-phase')).toBe('live');
      await expectTextsAt(tabs[lng], lng, 'live', channel.server);
    }
    const planned = await calendarEvent(channel.server);

    // Not on air yet: the start moves to a quarter of an hour from now, and the tabs count down again.
    const delayedAt = Date.now();
    channel.write({ startTime: wallTime(DELAYED_START) });
    const delayTook: number[] = [];
    for (const lng of LANGUAGES) {
      delayTook.push(await untilPhase(tabs[lng], 'before', delayedAt));
      expect(await tabs[lng].text('.hero__when')).toContain(wallTime(DELAYED_START));
      // Some quarter of an hour: the journey began a few minutes before.
      expect(await tabs[lng].text('[data-testid="countdown"]')).toMatch(/\b1[0-5]\b/);
      await expectTextsAt(tabs[lng], lng, 'moved', channel.server);
    }
    if (channelName === 'the live file') {
      await tabs.en.show();
      await keepScreenshot(tabs.en, `day-times-delayed-en-390x844-${browsers.engine}.png`);
    }
    const delayed = await calendarEvent(channel.server);
    expect(delayed.UID).toBe(planned.UID);
    expect(parseUtcDateTime(delayed.DTSTART!).getTime()).toBe(DELAYED_START);
    expect(Number(delayed.SEQUENCE)).toBeGreaterThan(Number(planned.SEQUENCE));
    expect(delayed.DTSTAMP! > planned.DTSTAMP!).toBe(true);
    expect(await headAndCalendarOf(channel.server.url)).toEqual(await headAndCalendarAt('moved'));
    const rescheduled = await jsonLd(channel.server);
    expect(rescheduled.eventStatus).toBe('https://schema.org/EventRescheduled');
    expect(rescheduled.startDate).toContain(`T${wallTime(DELAYED_START)}:00`);
    expect(rescheduled.previousStartDate).toContain(`T${PLAN.startTime}:00`);

    // On air after all, then ended early: the planned start again, the end at this minute.
    const endedAt = Date.now();
    const end = Math.floor(endedAt / MINUTE_MS) * MINUTE_MS;
    channel.write({ endTime: wallTime(end) });
    const endTook: number[] = [];
    for (const lng of LANGUAGES) {
      endTook.push(await untilPhase(tabs[lng], 'after', endedAt));
      expect(await tabs[lng].text('[role="status"]')).toBe(dictionary(lng).hero.ended);
      await expectTextsAt(tabs[lng], lng, 'after', channel.server);
    }
    if (channelName === 'the live file') {
      await tabs.de.show();
      await keepScreenshot(tabs.de, `day-times-ended-de-390x844-${browsers.engine}.png`);
    }
    const ended = await calendarEvent(channel.server);
    expect(parseUtcDateTime(ended.DTSTART!).getTime()).toBe(PLANNED_START);
    expect(parseUtcDateTime(ended.DTEND!).getTime()).toBe(end);
    expect(Number(ended.SEQUENCE)).toBeGreaterThan(Number(delayed.SEQUENCE));
    expect(await headAndCalendarOf(channel.server.url)).toEqual(await headAndCalendarAt('after'));
    const endedJsonLd = await jsonLd(channel.server);
    expect(endedJsonLd.eventStatus).toBe('https://schema.org/EventScheduled');
    expect(endedJsonLd.endDate).toContain(`T${wallTime(end)}:00`);

    for (const lng of LANGUAGES) {
      expect(await isSameDocument(tabs[lng])).toBe(true);
      expect(await problemsOf(tabs[lng])).toEqual([]);
    }
    console.log(
      `${browsers.engine}, ${channelName}: each tab followed the delay in ${delayTook.join(', ')} ms and the early end in ${endTook.join(', ')} ms (one tab shown at a time, in turn)`,
    );
  });
});
