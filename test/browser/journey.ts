import type { Problem } from './driver/types.ts';
import type { Visitor } from './driver/visitor.ts';
import { pageHasHydrated } from './hydrated.ts';

/**
 * Failures of third-party frames that cannot load on a machine without network (the video
 * and map embeds); everything else the console shows counts.
 */
export function isOfflineThirdPartyFailure(entry: { text: string; url: string }): boolean {
  const thirdParty = /https:\/\/(www\.)?(youtube-nocookie\.com|youtube\.com|google\.com|gstatic\.com)/;
  return thirdParty.test(entry.url) || (thirdParty.test(entry.text) && /net::ERR_|NS_ERROR_/.test(entry.text));
}

/** What a visitor's console showed, third-party frames that cannot load offline aside. */
export async function problemsOf(visitor: Visitor): Promise<Problem[]> {
  return (await visitor.problems()).filter((problem) => !isOfflineThirdPartyFailure(problem));
}

/**
 * The browser's own report of the page's 404 status (Chromium logs it as an error); on the 404
 * page that is the point.
 */
export function isNotFoundStatus(entry: { text: string; url: string }, pagePath: string): boolean {
  return new URL(entry.url || 'http://x/').pathname === pagePath && entry.text.includes('status of 404');
}

/**
 * Waits until the parts of the page the tests use are hydrated (before that, the overlay's
 * choices are plain links that load the page anew): the sections below the hero hydrate on their
 * own, later, and on a busy machine much later.
 */
export async function waitForHydration(visitor: Visitor, timeout = 20_000): Promise<void> {
  await visitor.waitFor(pageHasHydrated, undefined, { timeout, what: 'the page to hydrate' });
}

/**
 * How late the page's own timers run: a probe in the page asks for a 10 ms timeout over and
 * over and keeps the worst delay beyond it. On a busy machine every timer of the page is that
 * late too, so a timing assertion widens its tolerance by it and keeps its meaning: it fails
 * when the page asked for the wrong delay, not when the machine was slow.
 */
export async function watchTimerLateness(
  visitor: Visitor,
): Promise<{ reset(): Promise<void>; worstMs(): Promise<number> }> {
  await visitor.addInitScript(() => {
    if (window !== window.top) return;
    const probe = { worstMs: 0 };
    (window as unknown as { __timerLateness: typeof probe }).__timerLateness = probe;
    const schedule = () => {
      const due = performance.now() + 10;
      setTimeout(() => {
        probe.worstMs = Math.max(probe.worstMs, performance.now() - due);
        schedule();
      }, 10);
    };
    schedule();
  });
  return {
    reset: () =>
      visitor.evaluate(
        () => void ((window as unknown as { __timerLateness: { worstMs: number } }).__timerLateness.worstMs = 0),
      ),
    worstMs: () =>
      visitor.evaluate(() => (window as unknown as { __timerLateness: { worstMs: number } }).__timerLateness.worstMs),
  };
}
