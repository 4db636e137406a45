import { expect } from 'vitest';
import {
  BROADCAST_TEXTS,
  broadcastTextKey,
  type BroadcastMoment,
  type BroadcastText,
} from '../../shared/broadcast-texts.ts';
import { sharedTranslations } from '../helpers/app.ts';
import type { EventDisplay } from '../../shared/page-data.ts';

/** The date and times the texts of the broadcast name. */
type ShownTimes = Pick<EventDisplay, 'date' | 'time'>;
import { jsonLdOf, metaContent, parseHtml } from '../helpers/html.ts';
import { readSingleEvent } from '../helpers/icalendar.ts';
import { content } from '../helpers/render-client.tsx';
import type { SampleLanguage } from '../helpers/languages.ts';
import type { Visitor } from './driver/visitor.ts';

/** The texts of the broadcast an open tab shows (shared/broadcast-texts.ts); null where one is not there. */
export interface ShownBroadcastTexts {
  streamIntro: string | null;
  heroButton: string | null;
  playButton: string | null;
  providerLink: string | null;
  description: string | null;
}

/** What the tab shows of them now. */
export function broadcastTextsOf(visitor: Visitor): Promise<ShownBroadcastTexts> {
  return visitor.evaluate(() => {
    const text = (selector: string) => document.querySelector(selector)?.textContent?.trim() ?? null;
    return {
      streamIntro: text('[data-testid="stream-intro"]'),
      heroButton: text('.hero__stream'),
      playButton: text('#rsvp .embed-placeholder__load'),
      // The link's own words, without the hidden "opens in a new tab".
      providerLink: document.querySelector('#rsvp .embed-placeholder__link')?.firstChild?.textContent?.trim() ?? null,
      description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
    };
  });
}

/** What they should say in `lng` at `moment`, with the day's date and times as the hero shows them. */
export async function broadcastTextsAt(
  lng: SampleLanguage,
  moment: BroadcastMoment,
  display: ShownTimes,
): Promise<ShownBroadcastTexts> {
  const { t } = (await sharedTranslations()).forRequest(lng);
  const values = { ...display, provider: content.public.video.provider.name, cities: content.public.cityList[lng]! };
  const said = (text: BroadcastText) => {
    const key = broadcastTextKey(text, moment);
    return key === null ? null : t(key, values);
  };
  return {
    streamIntro: said('streamIntro'),
    heroButton: said('heroButton'),
    playButton: said('playButton'),
    providerLink: said('providerLink'),
    description: said('description'),
  };
}

/** The date and times a tab's hero shows: the day's, as the stream's texts name them. */
export async function displayOf(visitor: Visitor): Promise<ShownTimes> {
  const [date, time] = await visitor.evaluate(() =>
    [...document.querySelectorAll('.hero__when > span:not([aria-hidden])')].map((span) => span.textContent ?? ''),
  );
  return { date: date!, time: time! };
}

/**
 * What the server's English page says of the event in its head (its descriptions, the JSON-LD's)
 * and what its calendar file says (the description before its link, and the title), read now.
 */
export async function headAndCalendarOf(serverUrl: string) {
  const [html, calendar] = await Promise.all([
    fetch(`${serverUrl}/`, { headers: { Cookie: 'selectedLanguage=en' } }).then((res) => res.text()),
    fetch(`${serverUrl}/event.ics?lng=en`).then((res) => res.arrayBuffer()),
  ]);
  const doc = parseHtml(html);
  const event = readSingleEvent(Buffer.from(calendar)).event;
  return {
    descriptions: [
      metaContent(doc, 'description'),
      metaContent(doc, 'og:description'),
      metaContent(doc, 'twitter:description'),
      jsonLdOf(html).description as string,
      event.DESCRIPTION!.split('\n\n')[0],
    ],
    summary: event.SUMMARY,
  };
}

/** The head and the calendar say what holds at `moment`, the one what the other says. */
export async function headAndCalendarAt(moment: BroadcastMoment) {
  const { t } = (await sharedTranslations()).forRequest('en');
  const description = t(BROADCAST_TEXTS.description[moment], { cities: content.public.cityList.en! });
  return { descriptions: Array(5).fill(description), summary: t(BROADCAST_TEXTS.calendarSummary[moment]) };
}

/**
 * The tab's JSON-LD says what the server writes into a page in `lng` now: the tab rewrites it as
 * the day changes. Its picture aside, which stays the one the tab was served with (the server may
 * have made its own pictures of the backend's photo since).
 */
export async function expectJsonLdAsServed(visitor: Visitor, serverUrl: string, lng: SampleLanguage): Promise<void> {
  const html = await fetch(`${serverUrl}/`, { headers: { Cookie: `selectedLanguage=${lng}` } }).then((res) =>
    res.text(),
  );
  const { image: _image, ...served } = jsonLdOf(html);
  const expected = JSON.stringify(served);
  const shown = () =>
    visitor.evaluate(() => {
      const text = document.querySelector('script[type="application/ld+json"]')?.textContent;
      if (!text) return null;
      const { image: _kept, ...data } = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify(data);
    });
  // Rewritten in an effect after the commit that changed the texts: a moment, at most.
  await visitor
    .waitFor(
      (wanted) => {
        const text = document.querySelector('script[type="application/ld+json"]')?.textContent;
        if (!text) return false;
        const { image: _kept, ...data } = JSON.parse(text) as Record<string, unknown>;
        return JSON.stringify(data) === wanted;
      },
      expected,
      { timeout: 2000, what: "the tab's JSON-LD to be the server's" },
    )
    .catch(() => undefined);
  expect(JSON.parse((await shown()) ?? 'null')).toEqual(served);
}
