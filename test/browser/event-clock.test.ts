import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockTimeIn, visitorTimeRange } from '../../client/visitor-time.ts';
import type { TimePhase } from '../../shared/event-clock.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES, localeOf } from '../helpers/languages.ts';
import { contentFileForEvent, eventFieldsAt, wholeMinuteFromNow } from '../helpers/event-times.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { dictionary } from '../helpers/render-client.tsx';
import { launchBrowser } from '../../scripts/harness/chromium.ts';
import { axeViolations, WCAG_22_AA } from './axe.ts';
import type { Viewport } from './driver/types.ts';
import type { Visitor } from './driver/visitor.ts';
import { isOfflineThirdPartyFailure, problemsOf, watchTimerLateness } from './journey.ts';
import { setUpWatchedPages } from './chromium-page.ts';
import { setUpBrowsers } from './site.ts';
import { recordFirstPaint, waitOnClockPage } from './clock-page.ts';
import { pageHasHydrated } from './hydrated.ts';
import { escapeRegExp } from '../helpers/reg-exp.ts';
import { leadTime, rehearsalAt, rehearsalShiftOf } from './real-clock.ts';

const MINUTE = 60_000;

/** The Layout Instability API's entries, which the DOM typings lack. */
interface LayoutShift {
  value: number;
  sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
}

// Servers on the real clock with events placed around it; the browser's clock is moved by the test.
const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
const EVENTS: Record<TimePhase | 'soon', { start: number; minutes: number }> = {
  soon: { start: minute + 120 * MINUTE, minutes: 60 },
  before: { start: minute + 3 * 24 * 60 * MINUTE, minutes: 60 },
  live: { start: minute - 60 * MINUTE, minutes: 180 },
  after: { start: minute - 180 * MINUTE, minutes: 120 },
};

const browsers = setUpBrowsers();
/** Playwright's fake clock, which moves an open page's time at will, is Chromium's driver's alone. */
const fakeClock = browsers.engine === 'chromium';

/** Playwright's Chromium, for the journeys on its fake clock. */
let browser: Browser;
const servers = {} as Record<keyof typeof EVENTS, RunningServer>;
beforeAll(async () => {
  const entries = Object.entries(EVENTS) as [keyof typeof EVENTS, { start: number; minutes: number }][];
  const started = await Promise.all(
    entries.map(([, { start, minutes }]) => startServer({ CONTENT_PATH: contentFileForEvent(start, minutes) })),
  );
  entries.forEach(([name], i) => (servers[name] = started[i]!));
  if (fakeClock) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(Object.values(servers).map((server) => server.stop()));
});
const pages = setUpWatchedPages();

async function visit(server: RunningServer, language: Language, options: BrowserContextOptions = {}) {
  const watched = await pages.open(browser, options);
  await watched.page.context().addCookies([{ name: 'selectedLanguage', value: language, url: server.url }]);
  return watched;
}

const phaseOf = (page: Page) => page.locator('.hero').getAttribute('data-event-phase') as Promise<TimePhase>;

// The fake clock runs a tab's timers for hours in a moment; on the real clock, below, every engine
// crosses a start and an end.
describe
  .runIf(fakeClock)
  .each([
    ...LANGUAGES.map((lng) => [lng, { width: 1280, height: 800 }] as const),
    ['es', { width: 390, height: 844 }] as const,
    ['de', { width: 390, height: 844 }] as const,
  ])('an open page in %s at %o, on a fake clock', (lng, viewport) => {
  it('counts down, turns live at the start and closes at the end, in place and without a shift', async () => {
    const t = dictionary(lng);
    const { start, minutes } = EVENTS.soon;
    const end = start + minutes * MINUTE;
    // On a phone, a visitor whose midnight the event crosses: their times take two lines there.
    const timezoneId = viewport.width < 500 ? zoneAcrossMidnight(start) : undefined;
    const watched = await visit(servers.soon, lng, { viewport, ...(timezoneId ? { timezoneId } : {}) });
    const { page } = watched;
    await recordFirstPaint(page);
    // A minute before the start, flowing with real time: room for the page to load and hydrate on
    // a busy machine while it still counts down.
    await page.clock.install({ time: start - MINUTE });
    await page.goto(servers.soon.url + '/', { waitUntil: 'load' });
    // Hydrated, and the countdown follows the browser's clock, in seconds ("59 s", never the
    // server's "2 h"): the clock is paused next, and the app starts on timers of that clock.
    await waitOnClockPage(page, 'the page to hydrate', start, () => page.waitForFunction(pageHasHydrated));
    const inSeconds = new RegExp(escapeRegExp(t.countdown.seconds_other).replace('\\{\\{count\\}\\}', '\\d+'));
    await waitOnClockPage(page, 'the countdown in seconds', start, () =>
      page.locator('[data-testid="countdown"]').filter({ hasText: inSeconds }).waitFor(),
    );

    await page.evaluate(() => {
      const w = window as unknown as {
        __stayed: boolean;
        __moved: string[];
        __phases: [string, number][];
        __said: string[];
      };
      w.__stayed = true;
      w.__moved = [];
      w.__phases = [];
      w.__said = [];
      new PerformanceObserver((list) => {
        // Chrome also reports centred text whose words changed, its box in place (give or take a
        // pixel of rounding): only a box that moved counts.
        for (const entry of list.getEntries() as unknown as LayoutShift[]) {
          for (const source of entry.sources) {
            const [before, after] = [source.previousRect, source.currentRect];
            if (Math.abs(before.x - after.x) > 1 || Math.abs(before.y - after.y) > 1) {
              w.__moved.push(
                `${source.node?.nodeName}.${(source.node as Element | null)?.className ?? ''} "${source.node?.textContent?.slice(0, 40)}" ${before.x},${before.y} → ${after.x},${after.y}`,
              );
            }
          }
        }
      }).observe({ type: 'layout-shift' });
      const hero = document.querySelector('.hero')!;
      new MutationObserver(() => w.__phases.push([hero.getAttribute('data-event-phase')!, Date.now()])).observe(hero, {
        attributes: true,
        attributeFilter: ['data-event-phase'],
      });
      const status = document.querySelector('[role="status"]')!;
      new MutationObserver(() => w.__said.push(status.textContent!)).observe(status, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    expect(await phaseOf(page)).toBe('before');

    // From here the clock stands still but for the timers it is asked to run. React commits the
    // phase in a task of its own, which the clock does not run: on a busy machine that task can
    // come after the run, and a clock flowing with real time again would stamp it seconds late.
    await page.clock.pauseAt(start - 1000);
    await page.clock.runFor(3000);
    await waitOnClockPage(page, 'the live phase', start, () =>
      page.locator('.hero[data-event-phase="live"]').waitFor(),
    );
    await expect.poll(() => page.locator('.hero__live').textContent()).toBe(t.hero.live);
    expect(await page.locator('.hero__live').isVisible()).toBe(true);
    expect(await page.locator('.hero__stream').textContent()).toBe(t.hero.ctaLive);
    expect(await page.locator('[data-testid="countdown"]').count()).toBe(0);

    // Every timer on the way runs, as in a tab left open for the whole broadcast.
    await page.clock.runFor(end - (await page.evaluate(() => Date.now())) + 2000);
    await waitOnClockPage(page, 'the closing phase', start, () =>
      page.locator('.hero[data-event-phase="after"]').waitFor(),
    );
    expect(await page.locator('[role="status"]').textContent()).toBe(t.hero.ended);
    expect(await page.locator('a[href^="/event.ics"]').count()).toBe(0);
    expect(await page.locator('.hero__live').count()).toBe(0);

    const { __stayed, __moved, __phases, __said } = await page.evaluate(() => {
      const w = window as unknown as {
        __stayed: boolean;
        __moved: string[];
        __phases: [string, number][];
        __said: string[];
      };
      return { __stayed: w.__stayed, __moved: w.__moved, __phases: w.__phases, __said: w.__said };
    });
    expect(__stayed).toBe(true);
    expect(__phases.map(([phase]) => phase)).toEqual(['live', 'after']);
    // At each moment, or at the latest where the clock stood still 2 s after it, on the browser's clock.
    expect(__phases[0]![1] - start).toBeGreaterThanOrEqual(0);
    expect(__phases[0]![1] - start).toBeLessThanOrEqual(2000);
    expect(__phases[1]![1] - end).toBeGreaterThanOrEqual(0);
    expect(__phases[1]![1] - end).toBeLessThanOrEqual(2000);
    // The live region said each phase once, and nothing on the countdown's ticks.
    expect(__said.filter(Boolean)).toEqual([t.hero.live, t.hero.ended]);
    expect(__moved).toEqual([]);
    expect(watched.console.filter((entry) => !isOfflineThirdPartyFailure(entry))).toEqual([]);
    expect(watched.uncaught).toEqual([]);
  });
});

/** What the journey on the real clock watches in the page, from before the moment until after it. */
interface Watch {
  /** The hero that was there before the moment is the one there after it, in a document never reloaded. */
  sameHero: boolean;
  /** Each change of the phase, with the browser's time. */
  phases: [string, number][];
  /** What the live region said. */
  said: string[];
  /** Every position and size the hero and its title took, frame by frame. */
  boxes: string[];
  /** Boxes the Layout Instability API saw move, where the engine has it (Chromium). */
  moved: string[] | null;
}

/** Starts watching the open page: run once it is hydrated, before the moment. */
function watchInPage(): void {
  const w = window as unknown as { __watch: Watch; __hero: Element };
  const hero = document.querySelector('.hero')!;
  const layoutShifts = PerformanceObserver.supportedEntryTypes?.includes('layout-shift') ?? false;
  w.__hero = hero;
  w.__watch = { sameHero: true, phases: [], said: [], boxes: [], moved: layoutShifts ? [] : null };
  const watch = w.__watch;
  if (layoutShifts) {
    new PerformanceObserver((list) => {
      // Chrome also reports centred text whose words changed, its box in place (give or take a
      // pixel of rounding): only a box that moved counts.
      for (const entry of list.getEntries() as unknown as LayoutShift[]) {
        for (const source of entry.sources) {
          const [before, after] = [source.previousRect, source.currentRect];
          if (Math.abs(before.x - after.x) > 1 || Math.abs(before.y - after.y) > 1) {
            watch.moved!.push(
              `${source.node?.nodeName}.${(source.node as Element | null)?.className ?? ''} ${before.x},${before.y} → ${after.x},${after.y}`,
            );
          }
        }
      }
    }).observe({ type: 'layout-shift' });
  }
  new MutationObserver(() => watch.phases.push([hero.getAttribute('data-event-phase')!, Date.now()])).observe(hero, {
    attributes: true,
    attributeFilter: ['data-event-phase'],
  });
  const status = document.querySelector('[role="status"]')!;
  new MutationObserver(() => watch.said.push(status.textContent!)).observe(status, {
    childList: true,
    subtree: true,
    characterData: true,
  });
  // Where the Layout Instability API is missing, the boxes themselves, in every frame: the hero's
  // and its title's, which the countdown, the live badge and the closing words sit between.
  const boxOf = (element: Element | null) => {
    const box = element?.getBoundingClientRect();
    return box ? `${box.x},${box.y + scrollY} ${box.width}×${box.height}` : 'none';
  };
  const sample = () => {
    const now = `${boxOf(hero)} / ${boxOf(document.querySelector('.hero__title'))}`;
    if (watch.boxes.at(-1) !== now) watch.boxes.push(now);
    requestAnimationFrame(sample);
  };
  sample();
}

/** Opens the server's page for a visitor and, once it is hydrated, starts watching it. */
/** Waits until React has taken over the hero: from then on its clock runs in the browser. */
function heroHydrated(visitor: Visitor): Promise<void> {
  return visitor.waitFor(
    () => Object.keys(document.querySelector('.hero') ?? {}).some((key) => key.startsWith('__reactFiber')),
    undefined,
    { timeout: 20_000, what: 'the hero to hydrate' },
  );
}

async function openAndWatch(
  server: RunningServer,
  lng: Language,
  viewport: Viewport,
): Promise<{ visitor: Visitor; lateness: Awaited<ReturnType<typeof watchTimerLateness>> }> {
  const visitor = await browsers.visitor(server.url, { language: lng, viewport });
  const lateness = await watchTimerLateness(visitor);
  await visitor.goto('/');
  await heroHydrated(visitor);
  await visitor.evaluate(watchInPage);
  await lateness.reset();
  return { visitor, lateness };
}

async function watched(visitor: Visitor): Promise<Watch> {
  return visitor.evaluate(() => {
    const w = window as unknown as { __watch: Watch; __hero: Element };
    return { ...w.__watch, sameHero: w.__hero === document.querySelector('.hero') };
  });
}

/** The four tabs of the journey on the real clock: on which server, in which language and size, from which phase to which. */
const REAL_CLOCK_PAGES = [
  { server: 'starting', lng: 'en', viewport: { width: 1280, height: 800 }, from: 'before', to: 'live' },
  { server: 'starting', lng: 'de', viewport: { width: 390, height: 844 }, from: 'before', to: 'live' },
  { server: 'ending', lng: 'es', viewport: { width: 1280, height: 800 }, from: 'live', to: 'after' },
  { server: 'ending', lng: 'en', viewport: { width: 390, height: 844 }, from: 'live', to: 'after' },
] as const;

/**
 * Two servers rehearsing one event, their clocks set so that one reaches its start and the other
 * its end `lead` ms after they start, and the four tabs open and watched on them: null, all
 * closed again, where the tabs were not all open a second before the first moment.
 */
async function openBeforeTheMoment(lead: number) {
  const eventStart = wholeMinuteFromNow(60 * MINUTE);
  const content = contentFileForEvent(eventStart, 60);
  const [starting, ending] = await Promise.all([
    startServer({ CONTENT_PATH: content, ...rehearsalAt(eventStart - lead) }),
    startServer({ CONTENT_PATH: content, ...rehearsalAt(eventStart + 60 * MINUTE - lead) }),
  ]);
  const servers = { starting, ending };
  const stop = async () => {
    await Promise.all([starting.stop(), ending.stop()]);
    rmSync(path.dirname(content), { recursive: true, force: true });
  };
  const opened = [];
  try {
    for (const { server, lng, viewport, to } of REAL_CLOCK_PAGES) {
      const tab = await openAndWatch(servers[server], lng, viewport);
      // The moment on the real clock: each server fixed its shift as it started.
      const onEventClock = to === 'live' ? eventStart : eventStart + 60 * MINUTE;
      opened.push({ ...tab, moment: onEventClock - (await rehearsalShiftOf(tab.visitor)) });
    }
  } catch (error) {
    // A tab that failed to open leaves no server behind (the suite's own visitors are closed after each test).
    await stop();
    throw error;
  }
  if (Date.now() < Math.min(...opened.map(({ moment }) => moment)) - 1000) return { opened, stop };
  await Promise.all(opened.map(({ visitor }) => visitor.close()));
  await stop();
  return null;
}

describe(`an open page in ${browsers.engine}, as the real clock passes a rehearsal's moment`, () => {
  // The tabs' timers run on the real clock, as on the day, with the rehearsal's shift added (0 on
  // the day; the Chromium journeys above run without one).
  it('counts down and turns live at the start, and closes at the end, in place and without moving the hero', async () => {
    // Two servers start and four tabs open before the moment. A new tab's time varies (a WebKit
    // window took from 2 to 7 s on one machine): where they took longer than the lead, the
    // servers start again with twice the lead.
    let ready: Awaited<ReturnType<typeof openBeforeTheMoment>> = null;
    for (let lead = await leadTime(browsers, 4), tries = 0; !ready; lead *= 2, tries++) {
      if (tries === 3) throw new Error(`the tabs took longer to open than a lead of ${lead / 2000} s, three times`);
      ready = await openBeforeTheMoment(lead);
    }
    const { opened, stop } = ready;
    try {
      const pages = REAL_CLOCK_PAGES;
      const lastMoment = Math.max(...opened.map(({ moment }) => moment));
      for (const [i, { visitor }] of opened.entries()) {
        expect(await visitor.attribute('.hero', 'data-event-phase')).toBe(pages[i]!.from);
      }
      expect(await opened[0]!.visitor.text('[data-testid="countdown"]')).toMatch(/\d/);

      await new Promise((resolve) => setTimeout(resolve, lastMoment - Date.now() + 1500));
      for (const [i, { visitor, lateness, moment }] of opened.entries()) {
        const { lng, from, to } = pages[i]!;
        const t = dictionary(lng);
        await visitor.waitFor(
          (phase) => document.querySelector('.hero')?.getAttribute('data-event-phase') === phase,
          to,
          {
            timeout: 10_000,
          },
        );
        const watch = await watched(visitor);
        const late = await lateness.worstMs();
        expect(watch.sameHero).toBe(true);
        expect(watch.phases.map(([phase]) => phase)).toEqual([to]);
        // At the moment on the browser's clock, as late as its timers ran at most.
        expect(watch.phases[0]![1] - moment).toBeGreaterThanOrEqual(0);
        expect(watch.phases[0]![1] - moment).toBeLessThan(1000 + late);
        // The live region said the new phase once, and nothing on the countdown's ticks.
        expect(watch.said.filter(Boolean)).toEqual([to === 'live' ? t.hero.live : t.hero.ended]);
        if (from === 'before') {
          expect(await visitor.count('[data-testid="countdown"]')).toBe(0);
          expect(await visitor.text('.hero__live')).toBe(t.hero.live);
          expect(await visitor.isVisible('.hero__live')).toBe(true);
          expect(await visitor.text('.hero__stream')).toBe(t.hero.ctaLive);
        } else {
          expect(await visitor.text('[role="status"]')).toBe(t.hero.ended);
          expect(await visitor.count('a[href^="/event.ics"]')).toBe(0);
          expect(await visitor.count('.hero__live')).toBe(0);
        }
        // Neither the hero nor its title moved or changed size in any frame.
        expect(
          watch.boxes,
          `${lng} at ${pages[i]!.viewport.width} px, ${from} → ${to}: ${watch.boxes.join(' | ')}`,
        ).toHaveLength(1);
        // Chromium measures every box's shifts as well.
        if (visitor.engine === 'chromium') expect(watch.moved).toEqual([]);
        expect(await problemsOf(visitor)).toEqual([]);
      }
    } finally {
      await stop();
    }
  }, 240_000);
});

describe('a visitor far from the event', () => {
  // The servers' events sit at midday in a whole-hour zone between UTC−11 and UTC+12 that follows
  // the hour the suite runs at, so a visitor's zone must lie outside that set to differ at any
  // hour: Kiritimati is UTC+14, St. John's three and a half hours behind UTC (two and a half in summer).
  it.each([
    ['Pacific/Kiritimati', 'en'],
    ['America/St_Johns', 'es'],
  ] as const)(
    "in %s sees the times on their own clock too, the programme's included, added after hydration",
    async (timeZone, lng) => {
      const { start, minutes } = EVENTS.before;
      const fields = eventFieldsAt(start, minutes);
      const served = await fetch(servers.before.url + '/', { headers: { cookie: `selectedLanguage=${lng}` } });
      expect(await served.text()).not.toContain('data-testid="visitor-time"');
      const visitor = await browsers.visitor(servers.before.url, { language: lng, timeZone });
      await visitor.goto('/');
      expect(await visitor.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(timeZone);
      const expected = visitorTimeRange(
        { start, end: start + minutes * MINUTE },
        fields.timeZone,
        timeZone,
        localeOf(lng),
      )!;
      expect(expected).not.toBeNull();
      // The same range as the browser's own locale data writes it: a browser's ICU and Node's may
      // space and punctuate a range differently (WebKitGTK's system ICU writes "Sun, 29 Nov" where
      // Node's writes "Sun 29 Nov"), but not with other times or days.
      const inBrowser = await visitor.evaluate(
        new Function('args', `return (${visitorTimeRange.toString()})(...args)`) as (
          args: Parameters<typeof visitorTimeRange>,
        ) => string | null,
        [{ start, end: start + minutes * MINUTE }, fields.timeZone, timeZone, localeOf(lng)],
      );
      const bare = (text: string | null | undefined) => text?.replace(/[\s,]/g, '');
      expect(bare(inBrowser)).toBe(bare(expected));
      const spaced = (text: string | null) => text?.replace(/\s/g, ' ');
      await expect
        .poll(async () => spaced(await visitor.text('[data-testid="visitor-time"]')), { timeout: 10_000 })
        .toBe(spaced(dictionary(lng).hero.yourTime.replace('{{time}}', inBrowser!)));
      // The programme's first segment, at the start, on their clock too.
      const firstOnTheirClock = await visitor.evaluate(
        new Function('args', `return (${clockTimeIn.toString()})(...args)`) as (
          args: Parameters<typeof clockTimeIn>,
        ) => string,
        [start, timeZone, localeOf(lng)],
      );
      await expect
        .poll(async () => spaced(await visitor.text('.programme__visitor-time')), { timeout: 10_000 })
        .toBe(spaced(dictionary(lng).programme.yourTime.replace('{{time}}', firstOnTheirClock)));
      expect(await visitor.attribute('.hero', 'data-event-phase')).toBe('before');
      expect(await problemsOf(visitor)).toEqual([]);
    },
  );
});

/**
 * A fixed-offset zone whose clock puts the event's start in the last hour of a day, so that the
 * event ends on the next: the longest the visitor's times get ("Mi., 25. Nov., 23:00 – Do., …").
 */
function zoneAcrossMidnight(start: number): string {
  let offsetHours = 23 - new Date(start).getUTCHours();
  if (offsetHours > 14) offsetHours -= 24;
  return offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
}

describe("the visitor's times, added after hydration on a phone", () => {
  /** The hero's box, its title's and the phase block's, once the page has settled. */
  async function settledBoxes(server: RunningServer, lng: Language, timeZone: string, withTimes: boolean) {
    const visitor = await browsers.visitor(server.url, {
      language: lng,
      timeZone,
      viewport: { width: 390, height: 844 },
    });
    await visitor.goto('/');
    await heroHydrated(visitor);
    if (withTimes) {
      await visitor.waitFor(() => document.querySelector('[data-testid="visitor-time"]'), undefined, {
        timeout: 10_000,
        what: "the visitor's times",
      });
    } else {
      // The times join once the main thread is idle, within a second: wait that long for none.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await visitor.count('[data-testid="visitor-time"]')).toBe(0);
    }
    const boxes = await visitor.evaluate(() =>
      ['.hero', '.hero__title', '.hero__phase'].map((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return `${selector} ${box.y + scrollY} ${box.height}`;
      }),
    );
    expect(await problemsOf(visitor)).toEqual([]);
    return boxes;
  }

  // The server's page has no visitor's times: the phase block keeps the room they take at their
  // longest, two lines of a phone, so that neither their arrival nor a phase change moves it.
  // One language per journey: two visits each, each a tab of its own.
  it.each([
    ['before', 'de'],
    ['before', 'es'],
    ['live', 'de'],
    ['live', 'es'],
  ] as const)(
    "take no more room than the %s page keeps for them in %s, where the event crosses the visitor's midnight",
    async (phase, lng) => {
      const { start } = EVENTS[phase];
      const eventZone = eventFieldsAt(start, EVENTS[phase].minutes).timeZone;
      const far = await settledBoxes(servers[phase], lng, zoneAcrossMidnight(start), true);
      const near = await settledBoxes(servers[phase], lng, eventZone, false);
      expect(far, `${lng} in ${zoneAcrossMidnight(start)} against ${eventZone}`).toEqual(near);
    },
  );
});

describe.each(['before', 'live', 'after'] as const)('the %s page', (phase) => {
  it.each(['de', 'en'] as const)('in %s has no WCAG 2.2 A/AA violation', async (lng) => {
    const visitor = await browsers.visitor(servers[phase].url, { language: lng });
    await visitor.goto('/');
    await visitor.waitFor(() => document.querySelector('.hero__slides > :nth-child(2)'), undefined, {
      timeout: 20_000,
    });
    expect(await visitor.attribute('.hero', 'data-event-phase')).toBe(phase);
    expect(await axeViolations(visitor, WCAG_22_AA)).toEqual([]);
  });

  it('shows its phase with scripts off', async () => {
    const visitor = await browsers.visitor(servers[phase].url, { javaScript: false });
    await visitor.goto('/?lng=en');
    expect(await visitor.attribute('.hero', 'data-event-phase')).toBe(phase);
    const visible = {
      countdown: await visitor.isVisible('[data-testid="countdown"]'),
      live: await visitor.isVisible('.hero__live'),
      ended: (await visitor.text('[role="status"]')) === dictionary('en').hero.ended,
    };
    expect(visible).toEqual({ countdown: phase === 'before', live: phase === 'live', ended: phase === 'after' });
  });
});
