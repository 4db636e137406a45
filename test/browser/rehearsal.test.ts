import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toZonedIsoString } from '../../server/content/event-time.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { wallClockTime } from '../helpers/event-times.ts';
import { dictionary } from '../helpers/render-client.tsx';
import { wcagViolations } from './axe.ts';
import { problemsOf, waitForHydration, watchTimerLateness } from './journey.ts';
import { keepScreenshot } from './screenshots.ts';
import { setUpBrowsers } from './site.ts';
import type { Visitor } from './driver/visitor.ts';
import { openTab, throughTheFile } from './live-channels.ts';
import { leadTime, rehearsalShiftOf } from './real-clock.ts';

const browsers = setUpBrowsers();
// The shipped content file, as the event team would rehearse with their own: its event months ahead.
const { event } = loadContent(DEFAULT_CONTENT_PATH);
const start = event.start.getTime();

/** Each row of the programme as the tab shows it: its time, whether it is on air, its mark, where it is in the section. */
const programmeOf = (visitor: Visitor) =>
  visitor.evaluate(() => {
    const section = document.querySelector('.section--programme')!.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="programme-segment"]')].map((row) => {
      const box = row.getBoundingClientRect();
      return {
        time: row.querySelector('time')!.textContent,
        current: row.getAttribute('aria-current'),
        mark: row.querySelector('.programme__mark > .steady__shown')!.textContent,
        place: [Math.round(box.top - section.top), Math.round(box.height)],
      };
    });
  });

describe(`a rehearsal in ${browsers.engine}, on the real clock`, () => {
  it('shows its mark and the countdown, then turns live as the real clock passes the shifted start', async () => {
    const t = dictionary('en');
    // Time to start the server, read its HTML and open a tab before the start.
    const lead = await leadTime(browsers, 2);
    // As on the image: NODE_ENV=production with the second variable that allows a rehearsal there.
    // An instant with its offset, to the second: the event clock reads `lead` before the start.
    const server = await startServer({
      REHEARSAL_CLOCK: toZonedIsoString(new Date(start - lead), event.timeZone),
      REHEARSAL_IN_PRODUCTION: 'yes',
    });
    try {
      expect(server.logs.find((line) => line.msg?.toString().startsWith('rehearsal'))).toMatchObject({
        timeZone: event.timeZone,
      });

      // The server's HTML, before any script: the mark and the countdown on the shifted clock.
      const html = await (await fetch(`${server.url}/?lng=en`)).text();
      expect(html).toContain(`<strong>${t.rehearsal.label}</strong>`);
      // In whole minutes, rounded up.
      const count = Math.ceil(lead / 60_000);
      const minutes = t.countdown[count === 1 ? 'minutes_one' : 'minutes_other'].replace('{{count}}', String(count));
      expect(html).toContain(`data-testid="countdown">${t.countdown.startsIn.replace('{{duration}}', minutes)}<`);

      const visitor = await browsers.visitor(server.url, { language: 'en', viewport: { width: 390, height: 844 } });
      const lateness = await watchTimerLateness(visitor);
      await visitor.goto('/');
      await visitor.waitFor(
        () => Object.keys(document.querySelector('.hero') ?? {}).some((key) => key.startsWith('__reactFiber')),
        undefined,
        { timeout: 20_000, what: 'the hero to hydrate' },
      );
      // The moment on the real clock when the shifted clock reaches the start: the server fixed the
      // shift as it started, and the page carries it.
      const moment = start - (await rehearsalShiftOf(visitor));
      expect(Date.now()).toBeLessThan(moment);
      await visitor.evaluate(() => {
        const hero = document.querySelector('.hero')!;
        const w = window as unknown as { __phases: [string, number][] };
        w.__phases = [];
        new MutationObserver(() => w.__phases.push([hero.getAttribute('data-event-phase')!, Date.now()])).observe(
          hero,
          {
            attributes: true,
            attributeFilter: ['data-event-phase'],
          },
        );
      });
      await lateness.reset();

      // Hydrated: the browser's event clock is the shifted one, counting the seconds to the start
      // (the hero's fiber is there from the render that hydrates it, its clock from that render's commit).
      await visitor.waitFor(
        () => / s$/.test(document.querySelector('[data-testid="countdown"]')?.textContent ?? ''),
        undefined,
        { timeout: 5000, what: 'the countdown in seconds' },
      );
      const programmeBefore = await programmeOf(visitor);
      expect(programmeBefore[0]).toMatchObject({ current: null, mark: t.programme.next.replace('{{time}}', '18:00') });
      expect(await visitor.attribute('.hero', 'data-event-phase')).toBe('before');
      expect(await visitor.text('[data-testid="countdown"]')).toMatch(/^Starts in (\d+ min )?\d+ s$/);
      expect(await visitor.isVisible('[data-testid="rehearsal"]')).toBe(true);
      // The mark covers nothing: it sits above the page, in the flow.
      const [bannerBottom, pageTop] = await visitor.evaluate(() => [
        document.querySelector('[data-testid="rehearsal"]')!.getBoundingClientRect().bottom,
        document.querySelector('.page')!.getBoundingClientRect().top,
      ]);
      expect(pageTop).toBeGreaterThanOrEqual(bannerBottom);
      await keepScreenshot(visitor, `rehearsal-en-390x844-${browsers.engine}.png`);

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, moment - Date.now() + 1500)));
      await visitor.waitFor(
        () => document.querySelector('.hero')?.getAttribute('data-event-phase') === 'live',
        undefined,
        {
          timeout: 10_000,
          what: 'the hero to turn live',
        },
      );
      const phases = await visitor.evaluate(() => (window as unknown as { __phases: [string, number][] }).__phases);
      const late = await lateness.worstMs();
      expect(phases.map(([phase]) => phase)).toEqual(['live']);
      // At the moment on the browser's real clock, as late as its timers ran at most.
      expect(phases[0]![1] - moment).toBeGreaterThanOrEqual(0);
      expect(phases[0]![1] - moment).toBeLessThan(1000 + late);
      expect(await visitor.text('.hero__live')).toBe(t.hero.live);
      expect(await visitor.count('[data-testid="countdown"]')).toBe(0);
      expect(await visitor.isVisible('[data-testid="rehearsal"]')).toBe(true);
      // The programme's first segment is on air and the second next, in place: no row moved.
      const programmeLive = await programmeOf(visitor);
      expect(programmeLive.slice(0, 3).map(({ current, mark }) => [current, mark])).toEqual([
        ['time', t.programme.now],
        [null, t.programme.next.replace('{{time}}', '18:15')],
        [null, ''],
      ]);
      expect(programmeLive.map(({ place }) => place)).toEqual(programmeBefore.map(({ place }) => place));
      expect(await wcagViolations(visitor)).toEqual([]);
      expect(await problemsOf(visitor)).toEqual([]);

      // Without scripts: the mark, and the server's clock the same shifted one, a page asked for now live.
      const plain = await browsers.visitor(server.url, { javaScript: false });
      await plain.goto('/?lng=en');
      expect(await plain.isVisible('[data-testid="rehearsal"]')).toBe(true);
      expect(await plain.text('[data-testid="rehearsal"] strong')).toBe(t.rehearsal.label);
      expect(await plain.attribute('.hero', 'data-event-phase')).toBe('live');
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe(`the day on a rehearsal's clock in ${browsers.engine}`, () => {
  it('follows a delay, a backup stream, the delayed start and an early end, as the team writes them in the live file', async () => {
    const t = dictionary('en');
    /** An instant on the event's wall clock, as the team writes it: "18:01". */
    const wallTime = (instant: number) => wallClockTime(instant, event.timeZone);
    const phaseIs = (visitor: Visitor, phase: string, timeout: number) =>
      visitor.waitFor((p) => document.querySelector('.hero')?.getAttribute('data-event-phase') === p, phase, {
        timeout,
        what: `the hero to say "${phase}"`,
      });
    // The team writes whole minutes: the delayed start is the first whole minute after the planned
    // one that leaves time to open a tab and write two changes, and the rehearsal's clock reads that
    // long before it, past the planned start: the broadcast is on.
    const lead = await leadTime(browsers, 2);
    const delayed = start + Math.ceil((lead + 5000) / 60_000) * 60_000;
    const channel = await throughTheFile({
      REHEARSAL_CLOCK: toZonedIsoString(new Date(delayed - lead), event.timeZone),
      REHEARSAL_IN_PRODUCTION: 'yes',
    });
    try {
      const visitor = await openTab(browsers, channel.server, 'en');
      expect(await visitor.attribute('.hero', 'data-event-phase')).toBe('live');
      const shiftMs = await rehearsalShiftOf(visitor);

      // Not on air after all: the start moves to the delayed one.
      channel.write({ startTime: wallTime(delayed) });
      await phaseIs(visitor, 'before', 15_000);
      expect(await visitor.text('.hero__when')).toContain(wallTime(delayed));
      // Every segment as much later; the first is next again.
      const delayedProgramme = await programmeOf(visitor);
      expect(delayedProgramme[0]).toMatchObject({
        time: wallTime(delayed),
        current: null,
        mark: t.programme.next.replace('{{time}}', wallTime(delayed)),
      });
      expect(delayedProgramme[1]!.time).toBe(wallTime(event.start.getTime() + 15 * 60_000 + delayed - start));

      // The stream fails: a backup from the content file's video origin, behind the same placeholder.
      const backup = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?controls=0&rel=0';
      channel.write({ startTime: wallTime(delayed), stream: { embedUrl: backup } });
      await visitor.waitFor(
        () => document.querySelector('#rsvp .embed-placeholder__link')?.getAttribute('href')?.includes('aqz-KE-bpKQ'),
        undefined,
        { timeout: 15_000, what: "the placeholder to lead to the backup's page" },
      );

      // Live at the delayed start, on the rehearsal's clock.
      expect(Date.now(), 'the tab and the changes took longer than the lead').toBeLessThan(delayed - shiftMs);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, delayed - shiftMs - Date.now())));
      await phaseIs(visitor, 'live', 10_000);
      expect(await visitor.text('.hero__live')).toBe(t.hero.live);
      expect((await programmeOf(visitor))[0]).toMatchObject({ current: 'time', mark: t.programme.now });

      // Ended early: the planned start again, and the end at the minute the delayed start began.
      channel.write({ endTime: wallTime(delayed), stream: { embedUrl: backup } });
      await phaseIs(visitor, 'after', 15_000);
      expect(await visitor.text('[role="status"]')).toBe(t.hero.ended);
      // The programme at its planned times: the first segment was on air, the others are cut off.
      const endedProgramme = await programmeOf(visitor);
      expect(endedProgramme.map(({ time, current, mark }) => [time, current, mark])).toEqual(
        ['18:00', '18:15', '18:55', '19:40', '20:00', '20:45', '21:15'].map((time, index) => [
          time,
          null,
          index === 0 ? '' : t.programme.notTakingPlace,
        ]),
      );
      expect(await visitor.isVisible('[data-testid="rehearsal"]')).toBe(true);
      expect(await problemsOf(visitor)).toEqual([]);
    } finally {
      await channel.stop();
    }
  }, 180_000);
});

describe(`the pages of a rehearsal during the broadcast in ${browsers.engine}`, () => {
  let server: RunningServer;
  // A minute into the fourth segment of the programme: the music from Marbella, the panel next.
  beforeAll(async () => {
    server = await startServer({ REHEARSAL_CLOCK: '2027-03-18T19:41', REHEARSAL_IN_PRODUCTION: 'yes' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['/impressum', '/no-such-page'])(
    'mark %s, accessibly, in every language',
    async (path) => {
      for (const lng of ['de', 'en', 'es'] as const) {
        const visitor = await browsers.visitor(server.url, { language: lng });
        await visitor.goto(path);
        expect(await visitor.isVisible('[data-testid="rehearsal"]')).toBe(true);
        expect(await visitor.text('[data-testid="rehearsal"] strong')).toBe(dictionary(lng).rehearsal.label);
        expect(await visitor.text('[data-testid="rehearsal"]')).toContain('2027-03-18 19:41');
        expect(await wcagViolations(visitor)).toEqual([]);
      }
    },
    60_000,
  );

  it('mark the segment on air and the next in the programme, with scripts and without, on a phone and a desktop', async () => {
    const times = ['18:00', '18:15', '18:55', '19:40', '20:00', '20:45', '21:15'];
    const expected = (lng: 'de' | 'en') =>
      times.map((time, index) => ({
        time,
        current: index === 3 ? 'time' : null,
        mark:
          index === 3
            ? dictionary(lng).programme.now
            : index === 4
              ? dictionary(lng).programme.next.replace('{{time}}', '20:00')
              : '',
      }));
    const rows = (visitor: Visitor) =>
      visitor.evaluate(() =>
        [...document.querySelectorAll('[data-testid="programme-segment"]')].map((row) => ({
          time: row.querySelector('time')!.textContent,
          current: row.getAttribute('aria-current'),
          mark: row.querySelector('.programme__mark > .steady__shown')!.textContent,
        })),
      );
    const phone = await browsers.visitor(server.url, { language: 'en', viewport: { width: 390, height: 844 } });
    await phone.goto('/');
    await waitForHydration(phone);
    expect(await rows(phone)).toEqual(expected('en'));
    expect(await wcagViolations(phone)).toEqual([]);
    await phone.evaluate(() =>
      document.querySelector('[data-testid="programme-segment"][aria-current]')!.scrollIntoView({ block: 'center' }),
    );
    await keepScreenshot(phone, `programme-en-390x844-${browsers.engine}.png`);

    const desktop = await browsers.visitor(server.url, { language: 'de', viewport: { width: 1280, height: 800 } });
    await desktop.goto('/');
    await waitForHydration(desktop);
    expect(await rows(desktop)).toEqual(expected('de'));

    // The server's HTML alone is complete: the same rows and marks before any script.
    const plain = await browsers.visitor(server.url, { language: 'en', javaScript: false });
    await plain.goto('/');
    expect(await rows(plain)).toEqual(expected('en'));
    expect(await plain.isVisible('.section--programme')).toBe(true);
  }, 60_000);

  // Before a choice the overlay shows, in German, the default, over the page and its banner.
  it('marks the landing page under the language overlay, accessibly', async () => {
    const visitor = await browsers.visitor(server.url);
    await visitor.goto('/');
    expect(await visitor.count('.overlay')).toBe(1);
    expect(await visitor.text('[data-testid="rehearsal"] strong')).toBe(dictionary('de').rehearsal.label);
    expect(await wcagViolations(visitor)).toEqual([]);
  }, 60_000);
});
