// @vitest-environment happy-dom
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { act } from 'react';
import type { Root } from 'react-dom/client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { boot } from '../../client/boot.tsx';
import { click, dictionary, jsonResponse } from '../helpers/render-client.tsx';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { contentFileForEvent } from '../helpers/event-times.ts';
import type { TimePhase } from '../../shared/event-clock.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// The HTML comes from the built server in its own process, as a browser would get it.
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

let root: Root | undefined;
beforeEach(() => {
  localStorage.clear();
  document.cookie = 'selectedLanguage=; Max-Age=0; Path=/';
});
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.unstubAllGlobals();
});

/** Loads the server's HTML into the test document, as a browser would before scripts run. */
async function loadServerPage(path: string, cookie?: string, from: RunningServer = server) {
  // Node's own HTTP client: the test window's fetch would apply the browser's CORS rules.
  const res = await request(from.url)
    .get(path)
    .set(cookie ? { Cookie: cookie } : {});
  const parsed = new DOMParser().parseFromString(res.text, 'text/html');
  document.documentElement.lang = parsed.documentElement.lang;
  document.head.innerHTML = parsed.head.innerHTML;
  document.body.innerHTML = parsed.body.innerHTML;
  window.history.replaceState(null, '', path);
  // The test window never loads images; let them count as loaded, as in a browser.
  vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
  vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(240);
  return res;
}

describe('hydrating the server HTML', () => {
  // The setup file fails any test that logs: a hydration mismatch is logged by React and by boot().
  it.each([
    ['/', undefined],
    ['/', 'selectedLanguage=en'],
    ['/impressum', 'selectedLanguage=es'],
    ['/no-such-page', 'selectedLanguage=de'],
  ])('takes over %s (%s) without a mismatch', async (path, cookie) => {
    await loadServerPage(path, cookie);
    if (path === '/no-such-page') vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(Math, 'random').mockReturnValue(0); // the picker's random studio is then the first, as rendered
    const before = document.getElementById('root')!.textContent;
    await act(async () => {
      root = boot(document);
    });
    expect(textWithoutVisitorTime()).toBe(before);
  });

  it('then picks a random studio for the map, after hydration', async () => {
    await loadServerPage('/', 'selectedLanguage=de');
    const mapLink = () => document.querySelector('.map-panel .embed-placeholder__link')!.textContent;
    expect(mapLink()).toContain('Studio München');
    vi.spyOn(Math, 'random').mockReturnValue(0.6);
    await act(async () => {
      root = boot(document);
    });
    expect(mapLink()).toContain('Studio Wien');
    expect(document.querySelector('.map-panel__name')!.textContent).toBe('Studio Wien');
    expect(document.querySelector<HTMLSelectElement>('#studio-select')!.value).toBe('vienna');
  });

  it('brings the overlay to life', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(dictionary('en'))),
    );
    await loadServerPage('/');
    await act(async () => {
      root = boot(document);
    });
    click(document.querySelector('[role="dialog"] a[hreflang="en"]'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(document.documentElement.lang).toBe('en');
    expect(document.title).toBe('Horizon Live 2027 – Live from four studios');
  });
});

/** The page's text, less the line in the visitor's own time, which joins after hydration. */
function textWithoutVisitorTime(): string {
  const root = document.getElementById('root')!.cloneNode(true) as HTMLElement;
  root.querySelector('[data-testid="visitor-time"]')?.remove();
  return root.textContent!;
}

const phaseOf = () => document.querySelector('.hero')!.getAttribute('data-event-phase');
const countdown = () => document.querySelector('[data-testid="countdown"]')?.textContent;

describe('hydrating the server HTML in each phase of the event', () => {
  // Servers on the real clock, with events placed around it: three days ahead, an hour into
  // a three-hour broadcast, an hour after one, and one starting 30 minutes from now.
  const servers = {} as Record<TimePhase, RunningServer>;
  let soon: RunningServer;
  let startsAt: number;
  beforeAll(async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    startsAt = minute + 30 * 60_000;
    [servers.before, servers.live, servers.after, soon] = await Promise.all([
      startServer({ CONTENT_PATH: contentFileForEvent(minute + 3 * 24 * 60 * 60_000, 60) }),
      startServer({ CONTENT_PATH: contentFileForEvent(minute - 60 * 60_000, 180) }),
      startServer({ CONTENT_PATH: contentFileForEvent(minute - 180 * 60_000, 120) }),
      startServer({ CONTENT_PATH: contentFileForEvent(startsAt, 60) }),
    ]);
    // Four server processes starting at once: on a loaded machine (npm test beside the browser
    // suite, load average 15 on two cores) they took over vitest's 10 s for a hook.
  }, 30_000);
  afterAll(() => Promise.all([...Object.values(servers), soon].filter(Boolean).map((s) => s.stop())));

  it.each([
    ['before', 'de'],
    ['before', 'es'],
    ['live', 'de'],
    ['live', 'en'],
    ['after', 'es'],
    ['after', 'en'],
  ] as const)('takes over the %s page (%s) without a mismatch', async (phase, lng) => {
    await loadServerPage('/', `selectedLanguage=${lng}`, servers[phase]);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(phaseOf()).toBe(phase);
    const before = document.getElementById('root')!.textContent;
    await act(async () => {
      root = boot(document);
    });
    expect(phaseOf()).toBe(phase);
    expect(textWithoutVisitorTime()).toBe(before);
  });

  // The first render repeats the server's clock; the visitor's own clock takes over after it.
  it.each([
    ['a second before the start', -1000, 'before', 'Beginnt in 1 Sek.'],
    ['at the start', 0, 'live', undefined],
    ['hours after the end', 5 * 3_600_000, 'after', undefined],
  ] as const)(
    'takes over a countdown with the visitor clock %s, then follows that clock',
    async (_, offset, phase, text) => {
      await loadServerPage('/', 'selectedLanguage=de', soon);
      vi.spyOn(Math, 'random').mockReturnValue(0);
      expect(countdown()).toMatch(/^Beginnt in \d+ Min\.( \d+ Sek\.)?$/);
      const visitorNow = startsAt + offset;
      vi.spyOn(Date, 'now').mockImplementation(() => visitorNow);
      await act(async () => {
        root = boot(document);
      });
      expect(phaseOf()).toBe(phase);
      expect(countdown()).toBe(text);
    },
  );
});

describe('hydrating the server HTML of an event cancelled or postponed', () => {
  // Called off at the times when the page would otherwise be live, and count down.
  let cancelled: RunningServer;
  let postponed: RunningServer;
  let startsAt: number;
  beforeAll(async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    startsAt = minute + 30 * 60_000;
    [cancelled, postponed] = await Promise.all([
      startServer({ CONTENT_PATH: contentFileForEvent(minute - 60 * 60_000, 180, { status: 'EventCancelled' }) }),
      startServer({ CONTENT_PATH: contentFileForEvent(startsAt, 60, { status: 'EventPostponed' }) }),
    ]);
  });
  afterAll(() => Promise.all([cancelled, postponed].map((s) => s.stop())));
  const statusText = () => document.querySelector('.hero__status')!.textContent;

  it.each([
    ['cancelled', 'de'],
    ['cancelled', 'en'],
    ['postponed', 'es'],
    ['postponed', 'de'],
  ] as const)('takes over the %s page (%s) without a mismatch', async (phase, lng) => {
    await loadServerPage('/', `selectedLanguage=${lng}`, phase === 'cancelled' ? cancelled : postponed);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(phaseOf()).toBe(phase);
    expect(statusText()).toBe(dictionary(lng).hero[phase]);
    const before = document.getElementById('root')!.textContent;
    await act(async () => {
      root = boot(document);
    });
    expect(phaseOf()).toBe(phase);
    expect(document.getElementById('root')!.textContent).toBe(before);
  });

  it('keeps a postponed page still, whatever the visitor clock says', async () => {
    await loadServerPage('/', 'selectedLanguage=en', postponed);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    vi.spyOn(Date, 'now').mockImplementation(() => startsAt);
    await act(async () => {
      root = boot(document);
    });
    expect(phaseOf()).toBe('postponed');
    expect(countdown()).toBeUndefined();
    expect(statusText()).toBe(dictionary('en').hero.postponed);
  });
});

describe('the browser entry', () => {
  it('throws "Failed to find the root element" when the page has no root', () => {
    document.body.innerHTML = '<main>no root here</main>';
    expect(() => boot(document)).toThrow('Failed to find the root element');
  });
});

describe('hydrating the server HTML with a live notice and status', () => {
  let withLive: RunningServer;
  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'live-hydration-'));
    writeFileSync(
      path.join(folder, 'live.json'),
      JSON.stringify({
        notice: { level: 'warning', text: { de: 'Beginn <b>später</b>', en: 'Starts later' } },
        status: 'EventPostponed',
      }),
    );
    withLive = await startServer({ LIVE_PATH: path.join(folder, 'live.json') });
  });
  afterAll(() => withLive.stop());

  // Spanish: the notice has no Spanish text, and the page shows the German one.
  it.each(['selectedLanguage=de', 'selectedLanguage=es'])(
    'takes over the page (%s) without a mismatch, the notice and the status as rendered',
    async (cookie) => {
      await loadServerPage('/', cookie, withLive);
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const notice = document.querySelector('[data-testid="live-notice"]')!;
      expect(notice.textContent).toMatch(/Beginn <b>später<\/b>$/);
      const before = document.getElementById('root')!.textContent;
      await act(async () => {
        root = boot(document);
      });
      expect(textWithoutVisitorTime()).toBe(before);
      expect(document.querySelector('[data-testid="live-notice"]')).toBe(notice);
      expect(phaseOf()).toBe('postponed');
    },
  );
});
