import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, type SampleLanguage } from '../helpers/languages.ts';
import { dictionary } from '../helpers/render-client.tsx';
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
 * On the day, tried as the event team would: tabs open in the three languages, the team posts a
 * notice, changes it, makes a mistake, marks the event postponed and takes the notice down, once
 * through the live file and once through the backend's row. Every tab follows in place, every text
 * of the broadcast with it, with no reload and a clean console; the mistake is refused with its
 * reason and changes nothing on any page. The server's intervals are short here;
 * `npm run bench -- --live-bound` measures the defaults.
 */
const browsers = setUpBrowsers();
const FOLLOW_MS = 15_000;

const noticeText = (visitor: Visitor) =>
  visitor.evaluate(() => document.querySelector('[data-testid="live-notice"]')?.textContent ?? null);

/**
 * Switches to the tab, as its visitor would, and waits until it shows `expected` (null: no
 * notice). A tab behind another does not ask (Firefox keeps its visitors' tabs in one window):
 * shown again, it asks at once.
 */
async function untilNotice(visitor: Visitor, expected: string | null): Promise<void> {
  await visitor.show();
  await visitor.waitFor(
    (text) => (document.querySelector('[data-testid="live-notice"]')?.textContent ?? null) === text,
    expected,
    { timeout: FOLLOW_MS, what: expected === null ? 'the notice taken down' : `the notice "${expected}"` },
  );
}

describe.each([
  ['the live file', throughTheFile],
  ["the backend's row", throughTheRow],
] as const)(`on the day, through %s, in ${browsers.engine}`, (channelName, open) => {
  let channel: LiveChannel;
  const tabs = {} as Record<SampleLanguage, Visitor>;
  beforeAll(async () => {
    channel = await open();
    for (const lng of LANGUAGES) tabs[lng] = await openTab(browsers, channel.server, lng);
  }, 90_000);
  afterAll(() => channel?.stop());

  it('every open tab follows a notice posted, changed and taken down and the event postponed, and a mistake changes nothing', async () => {
    for (const lng of LANGUAGES)
      expect(await broadcastTextsOf(tabs[lng])).toEqual(
        await broadcastTextsAt(lng, 'before', await displayOf(tabs[lng])),
      );
    const posted = { de: 'Gleich geht es los.', en: 'We start in a moment.', es: 'Empezamos enseguida.' };
    channel.write({ notice: { level: 'info', text: posted } });
    for (const lng of LANGUAGES) await untilNotice(tabs[lng], `${dictionary(lng).liveNotice.info} ${posted[lng]}`);

    // Changed, and no longer in Spanish: the Spanish tab shows the German text.
    const changed = { de: 'Der Beginn verschiebt sich auf 18:15 Uhr.', en: 'The start moves to 18:15.' };
    channel.write({ notice: { level: 'warning', text: changed } });
    const shownChanged = (lng: SampleLanguage) =>
      `${dictionary(lng).liveNotice.warning} ${lng === 'es' ? changed.de : changed[lng]}`;
    for (const lng of LANGUAGES) await untilNotice(tabs[lng], shownChanged(lng));
    expect(await tabs.es.attribute('[data-testid="live-notice"] [lang]', 'lang')).toBe('de');
    // The JSON-LD's description opens with the notice, in the open tab as in a page served now.
    for (const lng of LANGUAGES) await expectJsonLdAsServed(tabs[lng], channel.server.url, lng);
    if (channelName === 'the live file') {
      await tabs.en.show();
      await keepScreenshot(tabs.en, `on-the-day-notice-en-390x844-${browsers.engine}.png`);
    }

    // A mistake: refused with its reason, logged once; every tab keeps the last good notice.
    const logged = channel.server.logs.length;
    const { reason } = channel.mistake();
    await expect
      .poll(() => channel.server.logs.slice(logged).filter((line) => reason.test(String(line.msg))).length, {
        timeout: FOLLOW_MS,
      })
      .toBe(1);
    // Each tab shown for longer than it takes to follow (its poll, the server's freshness, the edge's lifetime).
    for (const lng of LANGUAGES) {
      await tabs[lng].show();
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(await noticeText(tabs[lng])).toBe(shownChanged(lng));
    }

    channel.write({ notice: { level: 'warning', text: changed }, status: 'EventPostponed' });
    for (const lng of LANGUAGES) {
      await tabs[lng].show();
      await tabs[lng].waitFor(
        () => document.querySelector('.hero')?.getAttribute('data-event-phase') === 'postponed',
        undefined,
        { timeout: FOLLOW_MS, what: 'the hero to say the event is postponed' },
      );
      expect(await tabs[lng].text('.hero__status')).toBe(dictionary(lng).hero.postponed);
      expect(await tabs[lng].count('[data-testid="countdown"]')).toBe(0);
      // No stream to play, and the stream's section says why.
      expect(await broadcastTextsOf(tabs[lng])).toEqual(
        await broadcastTextsAt(lng, 'postponed', await displayOf(tabs[lng])),
      );
      expect(await tabs[lng].text('#rsvp .embed-placeholder__closed')).toBe(dictionary(lng).hero.postponed);
      await expectJsonLdAsServed(tabs[lng], channel.server.url, lng);
    }

    channel.write({ status: 'EventPostponed' });
    for (const lng of LANGUAGES) await untilNotice(tabs[lng], null);
    expect(await headAndCalendarOf(channel.server.url)).toEqual(await headAndCalendarAt('postponed'));
    if (channelName === 'the live file') {
      await tabs.de.show();
      await keepScreenshot(tabs.de, `on-the-day-postponed-de-390x844-${browsers.engine}.png`);
    }

    for (const lng of LANGUAGES) {
      const tab = tabs[lng];
      expect(await tab.attribute('.hero', 'data-event-phase')).toBe('postponed');
      expect(await isSameDocument(tab)).toBe(true);
      expect(tab.line.requests.filter((request) => request.path === '/')).toHaveLength(1);
      expect(await problemsOf(tab)).toEqual([]);
    }
  });
});
