import type { Browser, Page } from 'playwright-core';

/** One request a visitor's browser made to the site's own address. */
export interface VisitorRequest {
  path: string;
  /** The language cookie it carried, if any: a shared cache keys the page on it. */
  cookie?: string;
  status: number;
}

export interface RecordedVisits {
  /** A first visit: the page, the language chosen in the overlay, scrolled to the end. */
  firstVisit: VisitorRequest[];
  /** The same visitor coming back (language cookie set), scrolled to the end. */
  returning: VisitorRequest[];
}

/** The server's own record of the requests it answered (its access log), in order. */
export type AnsweredRequests = () => { path: string; status: number }[];

/**
 * What one visitor asks the site for, in a real browser on a phone-sized screen, through the
 * overlay's choice and a scroll to the end of the page, until the network is idle: the requests
 * that reached the server, as its access log has them (what the browser's own cache answered
 * does not count; the video and map frames are other sites'), each with the language cookie the
 * browser sent with it, which a shared cache keys the page on.
 */
export async function recordVisits(
  browser: Browser,
  siteUrl: string,
  answered: AnsweredRequests,
  language = 'en',
): Promise<RecordedVisits> {
  const origin = new URL(siteUrl).origin;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cookieByPath = new Map<string, string>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    const cookie = /(?:^|;\s*)selectedLanguage=([^;]+)/.exec(request.headers().cookie ?? '')?.[1];
    if (url.origin === origin && cookie) cookieByPath.set(url.pathname, cookie);
  });
  const visit = async (steps: () => Promise<void>): Promise<VisitorRequest[]> => {
    cookieByPath.clear();
    const before = answered().length;
    await steps();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the access log's lines of the last answers
    return answered()
      .slice(before)
      .map(({ path, status }) => ({
        path,
        status,
        ...(cookieByPath.has(path) ? { cookie: cookieByPath.get(path)! } : {}),
      }));
  };
  try {
    const firstVisit = await visit(async () => {
      await page.goto(`${siteUrl}/`, { waitUntil: 'networkidle' });
      await page.locator(`[role="dialog"] a[hreflang="${language}"]`).click();
      await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
      await scrollToEnd(page);
    });
    const returning = await visit(async () => {
      await page.goto(`${siteUrl}/`, { waitUntil: 'networkidle' });
      await scrollToEnd(page);
    });
    return { firstVisit, returning };
  } finally {
    await context.close();
  }
}

async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  await page.waitForLoadState('networkidle');
}
