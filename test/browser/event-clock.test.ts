import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { visitorTimeRange } from '../../client/visitor-time.ts';
import type { EventPhase } from '../../shared/event-clock.ts';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES, localeOf } from '../helpers/languages.ts';
import { contentFileForEvent, eventFieldsAt } from '../helpers/event-times.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { dictionary } from '../helpers/render-client.tsx';
import { launchBrowser } from '../../scripts/harness/chromium.ts';
import { isOfflineThirdPartyFailure, watchedPage } from './page.ts';

const MINUTE = 60_000;

/** The Layout Instability API's entries, which the DOM typings lack. */
interface LayoutShift {
  value: number;
  sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
}
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

// Servers on the real clock with events placed around it; the browser's clock is moved by the test.
const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
const EVENTS: Record<EventPhase | 'soon', { start: number; minutes: number }> = {
  soon: { start: minute + 120 * MINUTE, minutes: 1 },
  before: { start: minute + 3 * 24 * 60 * MINUTE, minutes: 60 },
  live: { start: minute - 60 * MINUTE, minutes: 180 },
  after: { start: minute - 180 * MINUTE, minutes: 120 },
};

let browser: Browser;
const servers = {} as Record<keyof typeof EVENTS, RunningServer>;
beforeAll(async () => {
  const entries = Object.entries(EVENTS) as [keyof typeof EVENTS, { start: number; minutes: number }][];
  const started = await Promise.all([
    launchBrowser(),
    ...entries.map(([, { start, minutes }]) => startServer({ CONTENT_PATH: contentFileForEvent(start, minutes) })),
  ]);
  browser = started[0] as Browser;
  entries.forEach(([name], i) => (servers[name] = started[i + 1] as RunningServer));
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(Object.values(servers).map((server) => server.stop()));
});
const contexts: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function visit(server: RunningServer, language: Language, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  contexts.push(context);
  await context.addCookies([{ name: 'selectedLanguage', value: language, url: server.url }]);
  return watchedPage(context);
}

const phaseOf = (page: Page) => page.locator('.hero').getAttribute('data-event-phase') as Promise<EventPhase>;

describe.each([
  ...LANGUAGES.map((lng) => [lng, { width: 1280, height: 800 }] as const),
  ['es', { width: 390, height: 844 }] as const,
  ['de', { width: 390, height: 844 }] as const,
])('an open page in %s at %o', (lng, viewport) => {
  it('counts down, turns live at the start and closes at the end, in place and without a shift', async () => {
    const t = dictionary(lng);
    const { start, minutes } = EVENTS.soon;
    const end = start + minutes * MINUTE;
    const watched = await visit(servers.soon, lng, { viewport });
    const { page } = watched;
    await page.clock.install({ time: start - 8000 });
    await page.goto(servers.soon.url + '/', { waitUntil: 'load' });
    // Hydrated: the countdown follows the browser's clock, in seconds.
    await page.waitForFunction(() => /\d/.test(document.querySelector('[data-testid="countdown"]')?.textContent ?? ''));
    await page
      .locator('[data-testid="countdown"]')
      .filter({ hasText: t.countdown.seconds_other.replace('{{count}}', '') })
      .waitFor();

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

    await page.clock.runFor(start - (await page.evaluate(() => Date.now())) + 2000);
    await page.locator('.hero[data-event-phase="live"]').waitFor();
    await expect.poll(() => page.locator('.hero__live').textContent()).toBe(t.hero.live);
    expect(await page.locator('.hero__live').isVisible()).toBe(true);
    expect(await page.locator('.hero__actions a[href="#rsvp"] .steady__shown').textContent()).toBe(t.hero.ctaLive);
    expect(await page.locator('[data-testid="countdown"]').count()).toBe(0);

    // Every timer on the way runs, as in a tab left open for the whole broadcast.
    await page.clock.runFor(end - (await page.evaluate(() => Date.now())) + 2000);
    await page.locator('.hero[data-event-phase="after"]').waitFor();
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
    // Within a few seconds of each moment, on the browser's clock.
    expect(__phases[0]![1] - start).toBeGreaterThanOrEqual(0);
    expect(__phases[0]![1] - start).toBeLessThan(3000);
    expect(__phases[1]![1] - end).toBeGreaterThanOrEqual(0);
    expect(__phases[1]![1] - end).toBeLessThan(3000);
    // The live region said each phase once, and nothing on the countdown's ticks.
    expect(__said.filter(Boolean)).toEqual([t.hero.live, t.hero.ended]);
    expect(__moved).toEqual([]);
    expect(watched.console.filter((entry) => !isOfflineThirdPartyFailure(entry))).toEqual([]);
    expect(watched.uncaught).toEqual([]);
  });
});

describe('a visitor far from the event', () => {
  // The servers' events sit at midday in a whole-hour zone between UTC−11 and UTC+12 that follows
  // the hour the suite runs at, so a visitor's zone must lie outside that set to differ at any
  // hour: Kiritimati is UTC+14, St. John's three and a half hours behind UTC (two and a half in summer).
  it.each([
    ['Pacific/Kiritimati', 'en'],
    ['America/St_Johns', 'es'],
  ] as const)('in %s sees the times on their own clock too, added after hydration', async (timezoneId, lng) => {
    const { start, minutes } = EVENTS.before;
    const fields = eventFieldsAt(start, minutes);
    const watched = await visit(servers.before, lng, { timezoneId });
    const { page } = watched;
    const response = await page.goto(servers.before.url + '/', { waitUntil: 'load' });
    expect(await response!.text()).not.toContain('data-testid="visitor-time"');
    const expected = visitorTimeRange(
      { start, end: start + minutes * MINUTE },
      fields.timeZone,
      timezoneId,
      localeOf(lng),
    )!;
    expect(expected).not.toBeNull();
    // Chromium's ICU and Node's may space a range differently (thin or ordinary spaces).
    const spaced = (text: string | null) => text?.replace(/\s/g, ' ');
    await expect
      .poll(async () => spaced(await page.locator('[data-testid="visitor-time"]').textContent()))
      .toBe(spaced(dictionary(lng).hero.yourTime.replace('{{time}}', expected)));
    expect(await phaseOf(page)).toBe('before');
    expect(watched.console.filter((entry) => !isOfflineThirdPartyFailure(entry))).toEqual([]);
  });
});

describe.each(['before', 'live', 'after'] as const)('the %s page', (phase) => {
  it.each(['de', 'en'] as const)('in %s has no WCAG 2.2 A/AA violation', async (lng) => {
    const { page } = await visit(servers[phase], lng);
    await page.goto(servers[phase].url + '/', { waitUntil: 'load' });
    await page.waitForFunction(() => document.querySelector('.hero__slide:nth-child(2)'));
    expect(await phaseOf(page)).toBe(phase);
    const result = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
    expect(result.violations.map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }))).toEqual([]);
  });

  it('shows its phase with scripts off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(servers[phase].url + '/?lng=en', { waitUntil: 'load' });
    expect(await phaseOf(page)).toBe(phase);
    const visible = {
      countdown: await page.locator('[data-testid="countdown"]').isVisible(),
      live: await page.locator('.hero__live').isVisible(),
      ended: (await page.locator('[role="status"]').textContent()) === dictionary('en').hero.ended,
    };
    expect(visible).toEqual({ countdown: phase === 'before', live: phase === 'live', ended: phase === 'after' });
  });
});
