import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/paths.ts';
import { addressLine } from '../../shared/content.ts';
import { DAY_MS } from '../../shared/event-clock.ts';
import { contentFileForEvent, wholeMinuteFromNow } from '../helpers/event-times.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { launchBrowser } from '../../scripts/harness/chromium.ts';

const { studios } = loadContent(DEFAULT_CONTENT_PATH).public;

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  // The shipped content with its event three days ahead, so that the hero offers the calendar
  // entry whatever the day the suite runs.
  const contentPath = contentFileForEvent(wholeMinuteFromNow(3 * DAY_MS), 90);
  [server, browser] = await Promise.all([startServer({ CONTENT_PATH: contentPath }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function languageCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies(server.url)).find((cookie) => cookie.name === 'selectedLanguage')?.value;
}

describe('with JavaScript turned off', () => {
  let visitor: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    visitor = await browser.newContext({ javaScriptEnabled: false });
    page = await visitor.newPage();
  });
  afterAll(async () => {
    await visitor?.close();
  });

  it('a first visit chooses English through the overlay and can read every section', async () => {
    await page.goto(`${server.url}/`);
    const overlay = page.locator('[role="dialog"]');
    expect(await overlay.isVisible()).toBe(true);
    expect(await overlay.locator('h2').textContent()).toBe('Select Language');

    await Promise.all([page.waitForURL(`${server.url}/?lng=en`), overlay.locator('a[hreflang="en"]').click()]);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('[role="dialog"]').count()).toBe(0);
    expect(await languageCookie(visitor)).toBe('en');

    const visible = (selector: string) => page.locator(selector).first().isVisible();
    expect(await page.locator('h1.hero__title').textContent()).toBe('Horizon Live 2027');
    expect(await page.locator('.hero__tagline').textContent()).toBe('One evening. Four studios. One shared broadcast.');
    expect(await visible('.hero__when')).toBe(true);
    expect(await page.locator('.hero__studio').textContent()).toBe('Studio München');
    expect(await page.locator('img.hero__slide.is-active').count()).toBe(1);
    expect(await page.locator('#video-heading').textContent()).toBe('The live stream');
    expect(await visible('#rsvp iframe')).toBe(true);
    expect(await page.locator('#studios-heading').textContent()).toBe('Our studios');
    expect(await page.locator('.studio-card:visible').count()).toBe(4);
    expect(await page.locator('#location-heading').textContent()).toBe('How to find us');
    expect(await page.locator('.footer a:visible').count()).toBe(2);
    expect(await page.locator('.hero__calendar').getAttribute('href')).toBe('/event.ics?lng=en');
    // The page behind the overlay is no longer inert: its links take focus and clicks.
    expect(await page.locator('.page[inert]').count()).toBe(0);
  });

  it('lists every studio address with its map link, and hides the controls that need scripts', async () => {
    const addresses = page.locator('.studio-list__address');
    expect(await addresses.count()).toBe(4);
    for (const [i, studio] of studios.entries()) {
      expect(await addresses.nth(i).isVisible()).toBe(true);
      expect(await addresses.nth(i).textContent()).toBe(addressLine(studio.byLanguage.en!));
      expect(await page.locator('.studio-list__item a').nth(i).getAttribute('href')).toBe(studio.mapLinkUrl);
    }
    expect(await page.locator('#studio-select').isVisible()).toBe(false);
    expect(await page.locator('.hero__pause').isVisible()).toBe(false);
  });

  it('opens the language dropdown and switches to Spanish', async () => {
    const menu = page.locator('.language-menu details');
    expect(await menu.locator('a[hreflang="es"]').isVisible()).toBe(false);
    await menu.locator('summary').click();
    expect(await menu.getAttribute('open')).toBe('');
    await Promise.all([page.waitForURL(`${server.url}/?lng=es`), menu.locator('a[hreflang="es"]').click()]);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('#studios-heading').textContent()).toBe('Nuestros estudios');
    expect(await languageCookie(visitor)).toBe('es');

    await page.goto(`${server.url}/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    expect(await page.locator('[role="dialog"]').count()).toBe(0);
  });
});

describe('with JavaScript on', () => {
  it('shows each studio address once: the list for visitors without scripts stays hidden', async () => {
    const visitor = await browser.newContext();
    try {
      const page = await visitor.newPage();
      const problems: string[] = [];
      page.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${server.url}/?lng=en`);
      // Once hydrated the carousel holds every slide, not only the server's first.
      await page.waitForFunction(() => document.querySelectorAll('img.hero__slide').length > 1);

      expect(await page.locator('.studio-list__address').count()).toBe(0);
      expect(await page.locator('#studio-select').isVisible()).toBe(true);
      for (const studio of studios) {
        expect(
          await page.getByText(addressLine(studio.byLanguage.en!), { exact: true }).filter({ visible: true }).count(),
        ).toBeLessThanOrEqual(1);
      }
      expect(problems.filter((text) => !/Failed to load resource|ERR_/.test(text))).toEqual([]);
    } finally {
      await visitor.close();
    }
  });
});
