import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { startServer, type RunningServer } from '../helpers/server-process.ts';
import { openBrowser } from './chromium.ts';

let server: RunningServer;
let browser: BrowserContext;
beforeAll(async () => {
  server = await startServer();
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the built page in Chromium', () => {
  it('hydrates: a language choice closes the overlay in place', async () => {
    const page = await browser.newPage();
    await page.goto(server.url + '/');
    await page.locator('[role="dialog"] a[hreflang="en"]').click();
    await page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.close();
  });
});
