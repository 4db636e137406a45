import type { Browser, Request } from 'playwright-core';
import type { Transfer } from './bytes-by-kind.ts';

export interface ReturningVisit {
  /** Every response the page received until the network was idle, as transferred. */
  transfers: Transfer[];
  /** Those asked for before the hero first moved on to its second slide; null when it did not move. */
  beforeFirstRotation: Transfer[] | null;
  /** Requests to the site that failed or answered an error status. */
  failed: string[];
}

/** Lighthouse's mobile screen, so that both benchmarks' phones choose the same pictures. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/** The hero moves every 4 s once hydrated; on a busy machine hydration may take a few seconds more. */
const ROTATION_TIMEOUT_MS = 20_000;
/** The hero's second slide shown: its `<img>`, or the `<img>` in its `<picture>`, is the active one. */
const SECOND_SLIDE_ACTIVE = '.hero__slides > :nth-child(2).is-active, .hero__slides > :nth-child(2) > .is-active';

/**
 * A returning visitor on a phone: the language chosen on an earlier visit (its cookie), nothing
 * in the cache. Loads `/` in Chromium, waits until the hero moves on to its second slide and the
 * network is idle, and gives every response with its bytes on the wire.
 */
export async function returningVisit(browser: Browser, siteUrl: string, language = 'en'): Promise<ReturningVisit> {
  const context = await browser.newContext(PHONE);
  await context.addCookies([{ name: 'selectedLanguage', value: language, url: siteUrl }]);
  const page = await context.newPage();
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  // The moment the hero moves, taken in the page as the class changes: the next slide's picture is
  // asked for in the same render, a frame before a poll would see the move.
  await page.addInitScript((selector) => {
    const watch = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      (window as { heroMovedAt?: number }).heroMovedAt = performance.timeOrigin + performance.now();
      watch.disconnect();
    });
    watch.observe(document, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
  }, SECOND_SLIDE_ACTIVE);
  try {
    await page.goto(`${siteUrl}/`, { waitUntil: 'networkidle' });
    const rotatedAt = await page
      .waitForFunction(() => (window as { heroMovedAt?: number }).heroMovedAt, undefined, {
        polling: 100,
        timeout: ROTATION_TIMEOUT_MS,
      })
      .then((handle) => handle.jsonValue() as Promise<number>)
      .catch(() => null);
    await page.waitForLoadState('networkidle');
    const origin = new URL(siteUrl).origin;
    const failed: string[] = [];
    const transfers: (Transfer & { startTime: number })[] = [];
    for (const request of requests) {
      const response = await request.response();
      const url = new URL(request.url());
      if (url.protocol === 'data:') continue;
      if (!response || response.status() >= 400) {
        if (url.origin === origin) failed.push(`${url.pathname} ${response ? response.status() : 'failed'}`);
        if (!response) continue;
      }
      const sizes = await request.sizes();
      transfers.push({
        url: request.url(),
        resourceType: request.resourceType(),
        mimeType: response.headers()['content-type'] ?? '',
        bytes: sizes.responseHeadersSize + sizes.responseBodySize,
        startTime: request.timing().startTime,
      });
    }
    const strip = ({ startTime: _startTime, ...transfer }: Transfer & { startTime: number }): Transfer => transfer;
    return {
      transfers: transfers.map(strip),
      beforeFirstRotation:
        rotatedAt === null ? null : transfers.filter(({ startTime }) => startTime < rotatedAt).map(strip),
      failed,
    };
  } finally {
    await context.close();
  }
}
