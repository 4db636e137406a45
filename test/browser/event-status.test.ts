import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { contentFileForEvent, wholeMinuteFromNow } from '../helpers/event-times.ts';
import { dictionary } from '../helpers/render-client.tsx';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import type { Visitor } from './driver/visitor.ts';
import { problemsOf } from './journey.ts';
import { setUpBrowsers } from './site.ts';

/**
 * A cancelled or a postponed event, at the times when the page would otherwise count down or
 * be live: the hero says so in the page's language, with scripts and without, and offers no
 * countdown, no "Live now" and no calendar entry.
 */
const MINUTE = 60_000;
const browsers = setUpBrowsers();

const STATUS = { cancelled: 'EventCancelled', postponed: 'EventPostponed' } as const;
type CalledOff = keyof typeof STATUS;
const servers = {} as Record<CalledOff, RunningServer>;
beforeAll(async () => {
  const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
  [servers.cancelled, servers.postponed] = await Promise.all([
    // An hour into its three hours: live, were it not cancelled.
    startServer({ CONTENT_PATH: contentFileForEvent(minute - 60 * MINUTE, 180, { status: STATUS.cancelled }) }),
    // Two hours ahead: a countdown, were it not postponed.
    startServer({
      CONTENT_PATH: contentFileForEvent(wholeMinuteFromNow(120 * MINUTE), 60, { status: STATUS.postponed }),
    }),
  ]);
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server?.stop()));
});

async function openPage(phase: CalledOff, language: Language, javaScript: boolean): Promise<Visitor> {
  const visitor = await browsers.visitor(servers[phase].url, { language, javaScript });
  await visitor.goto('/');
  if (javaScript)
    await visitor.waitFor(
      () => Object.keys(document.querySelector('.hero') ?? {}).some((key) => key.startsWith('__reactFiber')),
      undefined,
      { timeout: 20_000, what: 'the hero to hydrate' },
    );
  return visitor;
}

/** What the hero shows of the event's standing. */
async function heroStanding(visitor: Visitor) {
  return {
    phase: await visitor.attribute('.hero', 'data-event-phase'),
    status: await visitor.text('.hero__status'),
    countdowns: await visitor.count('[data-testid="countdown"]'),
    live: await visitor.count('.hero__live'),
    calendarLinks: await visitor.count('a[href^="/event.ics"]'),
    dateStruckThrough: await visitor.evaluate(() =>
      getComputedStyle(document.querySelector('.hero__when')!).textDecorationLine.includes('line-through'),
    ),
  };
}

describe.each(Object.keys(STATUS) as CalledOff[])(`a %s event in ${browsers.engine}`, (phase) => {
  it.each(LANGUAGES)('says so in %s once hydrated, with no countdown, nothing live and no calendar', async (lng) => {
    const visitor = await openPage(phase, lng, true);
    const expected = {
      phase,
      status: dictionary(lng).hero[phase] as string,
      countdowns: 0,
      live: 0,
      calendarLinks: 0,
      dateStruckThrough: true,
    };
    expect(await heroStanding(visitor)).toEqual(expected);
    // The clock stands still: a second later the page is the same, and hydration logged nothing.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await heroStanding(visitor)).toEqual(expected);
    expect(await problemsOf(visitor)).toEqual([]);
  });

  it('says so without JavaScript', async () => {
    const visitor = await openPage(phase, 'en', false);
    expect(await heroStanding(visitor)).toEqual({
      phase,
      status: dictionary('en').hero[phase] as string,
      countdowns: 0,
      live: 0,
      calendarLinks: 0,
      dateStruckThrough: true,
    });
  });
});
