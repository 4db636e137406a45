import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFixtureLanguages } from '../helpers/fixture-languages.ts';
import type { WatchedPage } from './page.ts';
import { setUpChromiumSite as setUpSite } from './chromium-site.ts';

/** French and a right-to-left Arabic added to the built server by files alone. */
const fixture = withFixtureLanguages();
afterAll(() => rmSync(path.dirname(fixture.localesDir), { recursive: true, force: true }));
/** Nothing logged, thrown or blocked: the added languages are as clean as the shipped ones. */
async function expectQuiet(visitor: WatchedPage) {
  expect(visitor.console).toEqual([]);
  expect(visitor.uncaught).toEqual([]);
  expect(await visitor.cspViolations()).toEqual([]);
}

const site = setUpSite({ CONTENT_PATH: fixture.contentPath, LOCALES_PATH: fixture.localesDir });

describe('a language added by files to the built server', () => {
  it('is chosen in the overlay and applied in place, with its texts from its own locale file', async () => {
    const visitor = await site.visitor({ viewport: { width: 390, height: 844 } });
    const { page } = visitor;
    await page.goto(site.url + '/', { waitUntil: 'load' });
    await page.locator('.overlay__choice', { hasText: 'Français' }).click();
    await page.locator('.overlay').waitFor({ state: 'detached' });
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('.hero__tagline').textContent()).toBe('Une soirée. Quatre studios. Une émission.');
    expect(await page.evaluate(() => localStorage.getItem('selectedLanguage'))).toBe('fr');
    await expectQuiet(visitor);
  });
});

describe('a returning visitor whose browser stored an added language', () => {
  it('gets it applied in place, the direction included, and the cookie written again', async () => {
    const visitor = await site.visitor({ viewport: { width: 390, height: 844 } });
    const { page, context } = visitor;
    await context.addInitScript(() => {
      // Not on the blank page a new tab starts with, which has no storage.
      if (location.protocol === 'http:') localStorage.setItem('selectedLanguage', 'ar');
    });
    await page.goto(site.url + '/', { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.lang === 'ar');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('.overlay').count()).toBe(0);
    const cookies = await context.cookies(site.url);
    expect(cookies.find((cookie) => cookie.name === 'selectedLanguage')?.value).toBe('ar');
    await expectQuiet(visitor);
  });
});

describe('a right-to-left language', () => {
  it.each([
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ])(
    'mirrors the layout at $width×$height: the dropdown at the top left, text from the right, cards right to left',
    async (viewport) => {
      const visitor = await site.visitor({ language: 'ar', viewport });
      const { page } = visitor;
      await page.goto(site.url + '/', { waitUntil: 'load' });
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');

      // The dropdown sits in the top corner where the text starts: the left one.
      const menu = (await page.locator('.language-menu summary').boundingBox())!;
      expect(menu.x).toBeLessThan(40);
      expect(menu.x + menu.width).toBeLessThan(viewport.width / 2);

      // A paragraph's text starts at its right edge.
      const intro = page.locator('[aria-labelledby="studios-heading"] .section__intro');
      await intro.scrollIntoViewIfNeeded();
      const { align, direction, textRight, boxRight, textLeft, boxLeft } = await intro.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const text = range.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return {
          align: style.textAlign,
          direction: style.direction,
          textRight: text.right,
          boxRight: box.right,
          textLeft: text.left,
          boxLeft: box.left,
        };
      });
      expect(direction).toBe('rtl');
      expect(['start', 'right']).toContain(align);
      expect(boxRight - textRight).toBeLessThan(2);
      if (textRight - textLeft < boxRight - boxLeft - 20) expect(textLeft - boxLeft).toBeGreaterThan(10);

      // The studio cards read from the right: in two columns the first is the right one.
      const cards = page.locator('.studio-grid > li');
      await cards.first().scrollIntoViewIfNeeded();
      const [first, second] = [(await cards.nth(0).boundingBox())!, (await cards.nth(1).boundingBox())!];
      if (viewport.width >= 768) expect(first.x).toBeGreaterThan(second.x);
      else expect(first.y).toBeLessThan(second.y);
      await expectQuiet(visitor);
    },
  );
});
