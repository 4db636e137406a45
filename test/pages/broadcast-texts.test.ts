import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { BroadcastMoment } from '../../shared/broadcast-texts.ts';
import type { EventStatus } from '../../shared/event-clock.ts';
import { HOUR_MS, MINUTE_MS } from '../../shared/event-clock.ts';
import type { Language } from '../../shared/languages.ts';
import type { LiveSchedule } from '../../shared/live-state.ts';
import type { PublicRecording } from '../../shared/page-data.ts';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { bodyBytes, sharedTranslations, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent, wallClockTime } from '../helpers/event-times.ts';
import { jsonLdOf, metaContent, parseHtml } from '../helpers/html.ts';
import { readSingleEvent } from '../helpers/icalendar.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { changeableLive } from '../helpers/live.ts';

/**
 * Every text of the page and its calendar that speaks of the start, the broadcast or the stream
 * says what holds at the moment it is sent: before the start, before a start the live state moved,
 * during the broadcast, after an early end, and for an event cancelled or postponed on the day.
 */
const START = Date.UTC(2027, 2, 18, 17, 0);
const content = editedContent((file) => moveEvent(file, eventFieldsAt(START, 90)));
const recordingPlanned = editedContent((file) => {
  moveEvent(file, eventFieldsAt(START, 90));
  file.video.recordingPlanned = true;
});
const form = (start: number, end: number): LiveSchedule =>
  liveRulesOf(content).event!.form(new Date(start), new Date(end));

interface Moment {
  now: number;
  status: EventStatus | null;
  schedule: LiveSchedule | null;
  recording?: PublicRecording;
  /** The content file says a recording will follow. */
  planned?: true;
}

const RECORDING: PublicRecording = {
  ...content.public.video,
  embedUrl: 'https://www.youtube-nocookie.com/embed/recording01',
  watchUrl: 'https://www.youtube.com/watch?v=recording01',
  beginsAtSeconds: 0,
};

const MOMENTS: Record<BroadcastMoment, Moment> = {
  before: { now: START - 2 * HOUR_MS, status: null, schedule: null },
  moved: { now: START - 2 * HOUR_MS, status: null, schedule: form(START + 30 * MINUTE_MS, START + 90 * MINUTE_MS) },
  live: { now: START + 10 * MINUTE_MS, status: null, schedule: null },
  // Ended early, at half past.
  after: { now: START + 40 * MINUTE_MS, status: null, schedule: form(START, START + 30 * MINUTE_MS) },
  awaiting: { now: START + 40 * MINUTE_MS, status: null, schedule: form(START, START + 30 * MINUTE_MS), planned: true },
  recording: {
    now: START + 40 * MINUTE_MS,
    status: null,
    schedule: form(START, START + 30 * MINUTE_MS),
    recording: RECORDING,
  },
  cancelled: { now: START + 10 * MINUTE_MS, status: 'EventCancelled', schedule: null },
  postponed: { now: START - 2 * HOUR_MS, status: 'EventPostponed', schedule: null },
};

/** The keys each text takes at each moment; null: the text is not there. */
const EXPECTED: Record<
  BroadcastMoment,
  {
    intro: string;
    heroButton: string | null;
    play: string | null;
    link: string | null;
    description: string;
    summary: string;
    calendarLink: string | null;
    /** What the player's box says in the button's place. */
    closed: string | null;
  }
> = {
  before: {
    intro: 'video.intro',
    heroButton: 'hero.cta',
    play: 'video.playBefore',
    link: 'video.watchAt',
    description: 'meta.description',
    summary: 'hero.title',
    calendarLink: 'hero.cta',
    closed: null,
  },
  moved: {
    intro: 'video.introMoved',
    heroButton: 'hero.cta',
    play: 'video.playBefore',
    link: 'video.watchAt',
    description: 'meta.description',
    summary: 'hero.title',
    calendarLink: 'hero.cta',
    closed: null,
  },
  live: {
    intro: 'video.introLive',
    heroButton: 'hero.ctaLive',
    play: 'video.playLive',
    link: 'video.watchAt',
    description: 'meta.description',
    summary: 'hero.title',
    calendarLink: 'hero.cta',
    closed: null,
  },
  after: {
    intro: 'video.introAfter',
    heroButton: null,
    play: null,
    link: null,
    description: 'meta.descriptionAfter',
    summary: 'hero.title',
    calendarLink: null,
    closed: 'hero.ended',
  },
  awaiting: {
    intro: 'video.introAwaiting',
    heroButton: null,
    play: null,
    link: null,
    description: 'meta.descriptionAfter',
    summary: 'hero.title',
    calendarLink: null,
    closed: 'video.recordingSoon',
  },
  recording: {
    intro: 'video.introRecording',
    heroButton: 'hero.recording',
    play: 'video.playRecording',
    link: 'video.watchRecordingAt',
    description: 'meta.descriptionRecording',
    summary: 'hero.title',
    calendarLink: 'hero.recording',
    closed: null,
  },
  cancelled: {
    intro: 'video.introCancelled',
    heroButton: null,
    play: null,
    link: null,
    description: 'meta.descriptionCancelled',
    summary: 'calendar.summaryCancelled',
    calendarLink: null,
    closed: 'hero.cancelled',
  },
  postponed: {
    intro: 'video.introPostponed',
    heroButton: null,
    play: null,
    link: null,
    description: 'meta.descriptionPostponed',
    summary: 'calendar.summaryPostponed',
    calendarLink: null,
    closed: 'hero.postponed',
  },
};

/** The landing page's HTML, head and calendar in `lng` at `moment`, with what they should say. */
async function sentAt(moment: BroadcastMoment, lng: Language) {
  const { now, status, schedule, recording = null, planned } = MOMENTS[moment];
  const { app } = await testApp({
    content: planned ? recordingPlanned : content,
    now: () => now,
    liveSource: changeableLive({ status, schedule, recording }),
  });
  const page = await request(app).get('/').set('Cookie', `selectedLanguage=${lng}`).expect(200);
  const calendar = await bodyBytes(request(app).get(`/event.ics?lng=${lng}`)).expect(200);
  const { t } = (await sharedTranslations()).forRequest(lng);
  const display = schedule ? schedule.display[lng]! : content.public.eventDisplay[lng]!;
  const values = {
    ...display,
    provider: content.public.video.provider.name,
    cities: content.public.cityList[lng]!,
  };
  return {
    doc: parseHtml(page.text),
    html: page.text,
    event: readSingleEvent(calendar.body as Buffer).event,
    said: (key: string | null) => (key === null ? null : t(key, values)),
    display,
  };
}

const textOf = (doc: Document, selector: string) => doc.querySelector(selector)?.textContent?.trim() ?? null;

describe.each(LANGUAGES)('the texts of the broadcast in %s', (lng) => {
  it.each(Object.keys(MOMENTS) as BroadcastMoment[])('say what holds %s', async (moment) => {
    const { doc, html, event, said } = await sentAt(moment, lng);
    const expected = EXPECTED[moment];

    expect(textOf(doc, '[data-testid="stream-intro"]')).toBe(said(expected.intro));
    expect(textOf(doc, '.hero__stream')).toBe(said(expected.heroButton));
    // No stream to play: no button and no link to the provider; the player's box says why.
    expect(textOf(doc, '#rsvp .embed-placeholder__load')).toBe(said(expected.play));
    expect(doc.querySelector('#rsvp .embed-placeholder__link')?.firstChild?.textContent?.trim() ?? null).toBe(
      said(expected.link),
    );
    expect(textOf(doc, '#rsvp .embed-placeholder__closed')).toBe(said(expected.closed));

    const description = said(expected.description)!;
    expect(metaContent(doc, 'description')).toBe(description);
    expect(metaContent(doc, 'og:description')).toBe(description);
    expect(metaContent(doc, 'twitter:description')).toBe(description);
    expect(jsonLdOf(html).description).toBe(description);

    // The calendar says what the head says, and links to the stream only where there is one.
    expect(event.SUMMARY).toBe(said(expected.summary));
    const [calendarDescription, calendarLink] = event.DESCRIPTION!.split('\n\n');
    expect(calendarDescription).toBe(description);
    const pageUrl = `http://localhost:3000/?lng=${lng}`;
    expect(calendarLink).toBe(expected.calendarLink ? `${said(expected.calendarLink)}: ${pageUrl}#rsvp` : pageUrl);
  });
});

it('the stream section offers the recording once the team names it, and the hero leads there', async () => {
  const { doc } = await sentAt('recording', 'en');
  expect(doc.querySelector('#rsvp .embed-placeholder__link')?.getAttribute('href')).toBe(RECORDING.watchUrl);
  expect(doc.querySelector('.hero__stream')?.getAttribute('href')).toBe('#rsvp');
  expect(doc.querySelector('.hero__recording')).toBeNull();
  // Its chapters, without scripts each a link to the recording at the provider at its moment: the
  // segments that took place before the early end at half past.
  const { programme, start } = content.public.event;
  const taken = programme.filter((segment) => segment.start < START + 30 * MINUTE_MS);
  expect(taken.length).toBeGreaterThan(1);
  expect([...doc.querySelectorAll('.chapters__chapter')].map((link) => link.getAttribute('href'))).toEqual(
    taken.map((segment) =>
      segment.start === start ? RECORDING.watchUrl : `${RECORDING.watchUrl}&t=${(segment.start - start) / 1000}s`,
    ),
  );
  // Before the end it is not shown: the stream is.
  const { doc: live } = await sentAt('live', 'en');
  expect(live.querySelector('#rsvp .embed-placeholder__link')?.getAttribute('href')).toBe(
    content.public.video.watchUrl,
  );
});

it('the stream section offers a recording the content file names ahead after the end, the live state’s in its place', async () => {
  const ahead = editedContent((file) => {
    moveEvent(file, eventFieldsAt(START, 90));
    file.video.recording = { embedUrl: 'https://www.youtube-nocookie.com/embed/aheadOfTime' };
  });
  const linked = async (now: number, recording: PublicRecording | null) => {
    const { app } = await testApp({ content: ahead, now: () => now, liveSource: changeableLive({ recording }) });
    const page = await request(app).get('/').set('Cookie', 'selectedLanguage=en').expect(200);
    return parseHtml(page.text).querySelector('#rsvp .embed-placeholder__link')?.getAttribute('href');
  };
  expect(await linked(START + 10 * MINUTE_MS, null)).toBe(ahead.public.video.watchUrl);
  expect(await linked(START + 100 * MINUTE_MS, null)).toBe('https://www.youtube.com/watch?v=aheadOfTime');
  expect(await linked(START + 100 * MINUTE_MS, RECORDING)).toBe(RECORDING.watchUrl);
});

it('the stream section names the moved start and the times the hero shows', async () => {
  const { doc, display } = await sentAt('moved', 'en');
  expect(textOf(doc, '[data-testid="stream-intro"]')).toBe(
    `The start has moved: ${display.date}, ${display.time} – watch it live right here.`,
  );
  expect(display.time).toContain(wallClockTime(START + 30 * MINUTE_MS, content.raw.event.timeZone));
  expect(textOf(doc, '.hero__when')).toContain(display.time);
});

describe('the legal notice', () => {
  it('describes the event as it stands, and a shared cache keeps it no longer than the phase', async () => {
    const clock = { now: START - 3000 };
    const { app } = await testApp(
      { content, now: () => clock.now, liveSource: changeableLive() },
      { NODE_ENV: 'test', PAGE_EDGE_SECONDS: '10' },
    );
    const { t } = (await sharedTranslations()).forRequest('en');
    const cities = content.public.cityList.en!;
    const before = await request(app).get('/impressum').set('Cookie', 'selectedLanguage=en').expect(200);
    expect(metaContent(parseHtml(before.text), 'description')).toBe(t('meta.description', { cities }));
    // Three seconds before the start: kept for three seconds, not ten.
    expect(before.headers['cdn-cache-control']).toBe('max-age=3');

    clock.now = START + 90 * MINUTE_MS;
    const after = await request(app).get('/impressum').set('Cookie', 'selectedLanguage=en').expect(200);
    expect(metaContent(parseHtml(after.text), 'description')).toBe(t('meta.descriptionAfter', { cities }));
    expect(after.headers['cdn-cache-control']).toBe('max-age=10');
  });
});
