import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { launchBrowser } from '../../scripts/harness/chromium.ts';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  context = await browser.newContext();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Violation {
  directive: string;
  blocked: string;
}

/** A page that records every Content-Security-Policy violation from its first script on. */
async function watchedPage(): Promise<{ page: Page; violations: () => Promise<Violation[]> }> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { cspViolations: Violation[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI });
    });
  });
  return {
    page,
    violations: () => page.evaluate(() => (window as unknown as { cspViolations: Violation[] }).cspViolations),
  };
}

describe('the Content-Security-Policy in Chromium', () => {
  it.each(['/', '/?lng=en', '/impressum', '/no/such/page'])(
    'reports no violation for the scripts, styles, images and frames of %s',
    async (path) => {
      const { page, violations } = await watchedPage();
      await page.goto(server.url + path, { waitUntil: 'load' });
      // Bring the lazily loaded video and map frames and every image into view.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      // The frames load lazily, and on a first visit to / only once a language is chosen: on the
      // English landing page, wait for both, however long the machine takes, then give late reports a moment.
      if (path === '/?lng=en') await page.waitForFunction(() => document.querySelectorAll('iframe').length >= 2);
      await page.waitForTimeout(300);
      expect(await violations()).toEqual([]);
      await page.close();
    },
  );

  it('applies the inline stylesheet it allows by hash, refuses any other inline style, and leaves the CSSOM alone', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(server.url + '/', { waitUntil: 'load' });
    const styles = await page.evaluate(() => {
      const injected = document.createElement('style');
      injected.textContent = 'body { outline: 3px solid rgb(255, 0, 0) }';
      document.head.append(injected);
      const withAttribute = document.createElement('p');
      withAttribute.setAttribute('style', 'color: rgb(255, 0, 0)');
      // What React does with a style prop: the CSSOM, which the policy does not govern.
      const throughCssom = document.createElement('p');
      throughCssom.style.color = 'rgb(0, 128, 0)';
      document.body.append(withAttribute, throughCssom);
      return {
        stylesheet: getComputedStyle(document.body).margin,
        injected: getComputedStyle(document.body).outlineStyle,
        attribute: getComputedStyle(withAttribute).color,
        cssom: getComputedStyle(throughCssom).color,
      };
    });
    await page.waitForTimeout(300);
    expect(styles).toMatchObject({ stylesheet: '0px', injected: 'none', cssom: 'rgb(0, 128, 0)' });
    expect(styles.attribute).not.toBe('rgb(255, 0, 0)');
    const directives = (await violations()).map((violation) => violation.directive).sort();
    expect(directives).toEqual(['style-src-attr', 'style-src-elem']);
    await page.close();
  });

  it('does report what it forbids, so the silence above means something', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(server.url + '/', { waitUntil: 'load' });
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      const frame = document.createElement('iframe');
      frame.src = 'https://evil.example/';
      document.body.append(frame);
    });
    // Reported asynchronously: as soon as the page has, however long the machine takes.
    await expect
      .poll(async () => (await violations()).map((violation) => violation.directive), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['script-src-elem', 'frame-src']));
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    await page.close();
  });
});
