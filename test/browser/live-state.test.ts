import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { dictionary } from '../helpers/render-client.tsx';
import type { Visitor } from './driver/visitor.ts';
import { problemsOf, waitForHydration } from './journey.ts';
import { setUpBrowsers } from './site.ts';

/**
 * An open page follows the live file: a notice posted, the event postponed and the notice taken
 * down each show in place, in the same document, with nothing the visitor reads moving and a clean
 * console, on a CPU slowed as on a phone. The server's intervals are the shortest there are.
 */
const browsers = setUpBrowsers();
const CPU_SLOWDOWN = 4;
const NOTICE = { level: 'warning', text: { de: 'Beginn um 18:15', en: 'The show starts at 18:15' } };

let server: RunningServer;
let liveFile: string;
beforeAll(async () => {
  liveFile = path.join(mkdtempSync(path.join(tmpdir(), 'live-journey-')), 'live.json');
  server = await startServer({
    LIVE_PATH: liveFile,
    LIVE_POLL_SECONDS: '1',
    LIVE_FILE_CHECK_SECONDS: '1',
    LIVE_EDGE_SECONDS: '0',
  });
});
afterAll(async () => {
  await server?.stop();
});

/** Writes the live file as an editor's save that replaces it whole. */
function writeLive(live: unknown): void {
  const next = `${liveFile}.next`;
  writeFileSync(next, JSON.stringify(live));
  renameSync(next, liveFile);
}

interface Watched {
  /** The hero's title and the studio picker's heading: where each was at every frame, when it moved. */
  moved: string[];
  /** Boxes the Layout Instability API saw move, where the engine has it (Chromium). */
  shifted: string[] | null;
  /** What the polite region said, each time it changed. */
  said: string[];
}

/** Run in the page once it is hydrated: marks the document and watches what moves and what is said. */
function watchInPage(): void {
  const w = window as unknown as { __sameDocument: boolean; __watched: Watched };
  w.__sameDocument = true;
  const layoutShifts = PerformanceObserver.supportedEntryTypes?.includes('layout-shift') ?? false;
  const watched: Watched = { moved: [], shifted: layoutShifts ? [] : null, said: [] };
  w.__watched = watched;
  if (layoutShifts) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      }[]) {
        for (const { node, previousRect: a, currentRect: b } of entry.sources)
          if (Math.abs(a.x - b.x) > 1 || Math.abs(a.y - b.y) > 1)
            watched.shifted!.push(`${node?.nodeName}.${(node as Element | null)?.className} ${a.y} → ${b.y}`);
      }
    }).observe({ type: 'layout-shift' });
  }
  const region = document.querySelector('.live-notice-region[aria-live="polite"]')!;
  // What a screen reader hears: the region's shown notice, each time it changes.
  new MutationObserver(() => {
    const shown = region.querySelector('[data-testid="live-notice"]')?.textContent ?? '';
    if (watched.said.at(-1) !== shown) watched.said.push(shown);
  }).observe(region, {
    attributes: true,
    childList: true,
    subtree: true,
    characterData: true,
  });
  const readers = ['.hero__title', '#location-heading'];
  const at = () => readers.map((selector) => document.querySelector(selector)!.getBoundingClientRect().top);
  const first = at();
  const sample = () => {
    const now = at();
    now.forEach((top, i) => {
      if (Math.abs(top - first[i]!) > 0.5) watched.moved.push(`${readers[i]} ${first[i]} → ${top}`);
    });
    requestAnimationFrame(sample);
  };
  sample();
}

const watched = (visitor: Visitor) => visitor.evaluate(() => (window as unknown as { __watched: Watched }).__watched);

describe(`an open page in ${browsers.engine}`, () => {
  it('shows a notice, the event postponed and the notice taken down in place, moving nothing', async () => {
    writeLive({});
    const en = dictionary('en');
    const visitor = await browsers.visitor(server.url, { language: 'en' });
    await visitor.slowDownCpu(CPU_SLOWDOWN);
    await visitor.goto('/');
    await waitForHydration(visitor, 40_000);
    expect(await visitor.count('[data-testid="live-notice"]')).toBe(0);
    await visitor.evaluate(watchInPage);

    writeLive({ notice: NOTICE });
    await visitor.waitFor(
      (text) => document.querySelector('[data-testid="live-notice"]')?.textContent?.endsWith(text),
      NOTICE.text.en,
      { timeout: 20_000, what: 'the notice' },
    );
    // Two frames on, nothing the visitor reads has moved.
    await visitor.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect((await watched(visitor)).moved).toEqual([]);
    // In view at the bottom of the viewport, over the page rather than in its flow.
    const box = await visitor.evaluate(() => {
      const notice = document.querySelector('[data-testid="live-notice"]')!.getBoundingClientRect();
      return { top: notice.top, bottom: notice.bottom, height: notice.height, viewport: innerHeight };
    });
    expect(box.height).toBeGreaterThan(0);
    expect(box.bottom).toBeCloseTo(box.viewport, 0);

    writeLive({ notice: NOTICE, status: 'EventPostponed' });
    await visitor.waitFor(
      () => document.querySelector('.hero')?.getAttribute('data-event-phase') === 'postponed',
      undefined,
      {
        timeout: 20_000,
        what: 'the hero to say the event is postponed',
      },
    );
    expect(await visitor.text('.hero__status')).toBe(en.hero.postponed);

    writeLive({ status: 'EventPostponed' });
    await visitor.waitFor(() => !document.querySelector('[data-testid="live-notice"]'), undefined, {
      timeout: 20_000,
      what: 'the notice to be taken down',
    });
    expect(await visitor.attribute('.hero', 'data-event-phase')).toBe('postponed');

    expect(await visitor.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    const seen = await watched(visitor);
    expect(seen.moved).toEqual([]);
    if (seen.shifted) expect(seen.shifted).toEqual([]);
    // Heard once: the region spoke the notice when it came, and nothing when it went.
    expect(seen.said).toEqual([`${en.liveNotice.warning} ${NOTICE.text.en}`, '']);
    expect(await problemsOf(visitor)).toEqual([]);
    expect(visitor.line.requests.filter((request) => request.path === '/').length).toBe(1);
  });

  it('lets the visitor close a notice that came later, by click and by keyboard, and shows the next one again', async () => {
    writeLive({});
    const en = dictionary('en');
    const NEXT = { level: 'info', text: { de: 'Jetzt live aus Wien', en: 'Live now from Vienna' } };
    const visitor = await browsers.visitor(server.url, { language: 'en', viewport: { width: 390, height: 844 } });
    await visitor.goto('/');
    await waitForHydration(visitor, 40_000);
    await visitor.evaluate(watchInPage);
    const noticeSays = (text: string) =>
      visitor.waitFor(
        (text) => document.querySelector('[data-testid="live-notice"]')?.textContent?.endsWith(text),
        text,
        { timeout: 20_000, what: `the notice "${text}"` },
      );
    /**
     * Closes the notice by `act`, and checks that what the visitor sees has not moved on the
     * screen. The page is scrolled to its end first, where the bar lies in the flow, and left to
     * settle (sections a scroll reveals take their own size then): a click brings the bar into
     * view first (WebDriver's scrolls it to the centre), which scrolls nothing from there, and a
     * bar that gave up its room there would pull the page down.
     */
    const closedBy = async (act: () => Promise<void>) => {
      const onScreen = (scroll: boolean) =>
        visitor.evaluate(async (scroll) => {
          if (scroll) scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return ['#location-heading', 'footer', '.footer a[href]'].map(
            (selector) => document.querySelector(selector)!.getBoundingClientRect().top,
          );
        }, scroll);
      let before = await onScreen(true);
      for (let settled = await onScreen(true); settled.join() !== before.join(); settled = await onScreen(true))
        before = settled;
      await act();
      await visitor.waitFor(() => !document.querySelector('[data-testid="live-notice"]'), undefined, {
        timeout: 5000,
        what: 'the notice to close',
      });
      expect(await onScreen(false)).toEqual(before);
      expect(await visitor.count('.live-notice-bar__close')).toBe(0);
    };

    // By click.
    writeLive({ notice: NOTICE });
    await noticeSays(NOTICE.text.en);
    expect(await visitor.attribute('.live-notice-bar__close', 'aria-label')).toBe(en.liveNotice.close);
    await closedBy(() => visitor.click('.live-notice-bar__close'));
    // The same notice read again stays closed.
    writeLive({ notice: NOTICE, status: 'EventPostponed' });
    await visitor.waitFor(
      () => document.querySelector('.hero')?.getAttribute('data-event-phase') === 'postponed',
      undefined,
      { timeout: 20_000, what: 'the hero to say the event is postponed' },
    );
    expect(await visitor.count('[data-testid="live-notice"]')).toBe(0);

    // The next notice shows again; the keyboard reaches its button after the page's last control.
    writeLive({ notice: NEXT, status: 'EventPostponed' });
    await noticeSays(NEXT.text.en);
    await visitor.evaluate(() => {
      const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, select, input')].filter(
        (element) => !element.closest('.live-notice-bar') && element.getClientRects().length > 0,
      );
      controls.at(-1)!.focus();
    });
    await visitor.press(null, 'Tab');
    expect(await visitor.evaluate(() => document.activeElement?.className)).toBe('live-notice-bar__close');
    await closedBy(() => visitor.press(null, 'Enter'));

    const seen = await watched(visitor);
    // Each notice heard once, when it came; nothing when it was closed.
    expect(seen.said).toEqual([
      `${en.liveNotice.warning} ${NOTICE.text.en}`,
      '',
      `${en.liveNotice.info} ${NEXT.text.en}`,
      '',
    ]);
    expect(await problemsOf(visitor)).toEqual([]);
  });
});
