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
 * Waits until the server at `serverUrl` names its own pictures of the four slides' photos: it makes
 * them once it has started, and until then its pages name the content file's.
 */
export async function waitForMadePictures(serverUrl: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await (await fetch(`${serverUrl}/?lng=de`)).text();
    if ((page.match(/"image":"\/images\/photos\//g) ?? []).length >= 4) return;
    if (Date.now() > deadline)
      throw new Error(`the server has not made the four slides’ pictures within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Waits until `selector` has the focus and the page has stopped scrolling to it. Focusing an
 * element scrolls it into view, smoothly where motion is not reduced (`scroll-behavior: smooth`),
 * over several frames and longer on a busy machine: a click sent while that scroll runs is aimed
 * where its target was, and WebKit then refuses it as not interactable.
 */
export async function waitForFocusScrolledTo(visitor: Visitor, selector: string, timeout = 20_000): Promise<void> {
  await visitor.waitFor((s) => document.activeElement === document.querySelector(s), selector, {
    timeout,
    what: `${selector} to take the focus`,
  });
  await visitor.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = Number.NaN;
        let still = 0;
        const check = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 4) resolve();
          else setTimeout(check, 50);
        };
        check();
      }),
  );
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
