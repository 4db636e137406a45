// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveRulesOf } from '../../server/content/live-rules.ts';
import { BROADCAST_TEXTS } from '../../shared/broadcast-texts.ts';
import { MINUTE_MS, SECOND_MS } from '../../shared/event-clock.ts';
import type { LiveState } from '../../shared/live-state.ts';
import { content, dictionary, NO_LIVE_STATE, renderApp } from '../helpers/render-client.tsx';
import { liveState, serveLiveStates } from '../helpers/live-answers.ts';

/**
 * An open tab's head follows the day: the descriptions and, on the landing page, the JSON-LD,
 * rewritten whole so that its description, status and dates agree, in the tab's language.
 */
const START = content.public.event.start;
const END = content.public.event.end;
const form = liveRulesOf(content).event!.form;
const NOTICE = { level: 'warning' as const, text: { de: 'Beginn um 18:15', en: 'Starts at 18:15' } };
const DELAYED = liveState('delayed', '2027-03-18T16:50:00.000Z', {
  notice: NOTICE,
  schedule: form(new Date(START + 15 * MINUTE_MS), new Date(END)),
});
const POSTPONED: LiveState = { ...DELAYED, version: 'postponed', status: 'EventPostponed' };
/** The server's JSON-LD, as far as the tab keeps it: the page's address and picture. */
const SENT = { url: 'https://event.example/?lng=en', image: ['https://event.example/hero.jpg'] };

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const jsonLd = () => JSON.parse(document.querySelector('script[type="application/ld+json"]')!.textContent!);
const described = (lng: 'de' | 'en', key: string) => {
  const said = dictionary(lng).meta[key.replace('meta.', '') as keyof ReturnType<typeof dictionary>['meta']];
  return said.replace('$t(product)', dictionary(lng).product).replace('{{cities}}', content.public.cityList[lng]!);
};

let written: HTMLScriptElement;
beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0.999);
  vi.setSystemTime(START - 2 * MINUTE_MS);
  localStorage.clear();
  document.head.querySelectorAll('script[type="application/ld+json"]').forEach((script) => script.remove());
  written = document.head.appendChild(document.createElement('script'));
  written.type = 'application/ld+json';
  written.textContent = JSON.stringify(SENT);
});
afterEach(() => {
  written.remove();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("an open tab's JSON-LD", () => {
  it('follows a delay with a notice and a postponement: its description, status and dates agree', async () => {
    serveLiveStates(DELAYED, DELAYED, POSTPONED);
    renderApp({ language: 'en', live: NO_LIVE_STATE, livePollSeconds: 30 });
    expect(jsonLd()).toMatchObject({
      name: dictionary('en').product,
      description: described('en', BROADCAST_TEXTS.description.before),
      inLanguage: 'en',
      url: SENT.url,
      image: SENT.image,
      startDate: '2027-03-18T18:00:00+01:00',
      endDate: '2027-03-18T21:30:00+01:00',
      eventStatus: 'https://schema.org/EventScheduled',
    });
    expect(jsonLd()).not.toHaveProperty('previousStartDate');

    await advance(30 * SECOND_MS);
    expect(jsonLd()).toMatchObject({
      description: `Starts at 18:15 ${described('en', BROADCAST_TEXTS.description.moved)}`,
      startDate: '2027-03-18T18:15:00+01:00',
      endDate: '2027-03-18T21:30:00+01:00',
      previousStartDate: '2027-03-18T18:00:00+01:00',
      eventStatus: 'https://schema.org/EventRescheduled',
    });

    await advance(60 * SECOND_MS);
    expect(jsonLd()).toMatchObject({
      description: `Starts at 18:15 ${described('en', BROADCAST_TEXTS.description.postponed)}`,
      eventStatus: 'https://schema.org/EventPostponed',
    });
  });

  it("speaks the tab's language, its address and studios too, and keeps the server's picture", () => {
    serveLiveStates(NO_LIVE_STATE);
    renderApp({ language: 'de', live: NO_LIVE_STATE });
    const data = jsonLd();
    expect(data).toMatchObject({
      name: dictionary('de').product,
      description: described('de', BROADCAST_TEXTS.description.before),
      inLanguage: 'de',
      url: 'https://event.example/?lng=de',
      image: SENT.image,
    });
    expect(data.location[0].url).toBe('https://event.example/?lng=de#rsvp');
    expect(data.location.slice(1).map((place: { name: string }) => place.name)).toEqual(
      content.public.studios.map((studio) => studio.byLanguage.de!.name),
    );
  });

  it('names the stream as a live broadcast from the start, the backup the team names once it is named', async () => {
    const backup = { ...content.public.video, embedUrl: 'https://www.youtube-nocookie.com/embed/backupStream01' };
    serveLiveStates(liveState('backup', '2027-03-18T17:00:30.000Z', { stream: backup }));
    vi.setSystemTime(START - 10 * SECOND_MS);
    renderApp({ language: 'en', live: NO_LIVE_STATE, livePollSeconds: 30 });
    expect(jsonLd()).not.toHaveProperty('subjectOf');

    await advance(11 * SECOND_MS);
    expect(jsonLd().subjectOf).toEqual({
      '@type': 'VideoObject',
      name: dictionary('en').product,
      description: described('en', BROADCAST_TEXTS.description.live),
      thumbnailUrl: [new URL(content.public.video.poster!.src, SENT.url).href],
      uploadDate: '2027-03-18T18:00:00+01:00',
      embedUrl: content.public.video.embedUrl,
      publication: {
        '@type': 'BroadcastEvent',
        isLiveBroadcast: true,
        startDate: '2027-03-18T18:00:00+01:00',
        endDate: '2027-03-18T21:30:00+01:00',
      },
    });

    await advance(30 * SECOND_MS);
    expect(jsonLd().subjectOf.embedUrl).toBe(backup.embedUrl);
  });

  it('is left alone where the page has none of its own addresses', () => {
    written.textContent = '{"@type":"Thing"}';
    serveLiveStates(NO_LIVE_STATE);
    renderApp({ language: 'en', live: NO_LIVE_STATE });
    expect(written.textContent).toBe('{"@type":"Thing"}');
  });
});
