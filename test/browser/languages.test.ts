import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFixtureLanguages } from '../helpers/fixture-languages.ts';
import type { Visitor } from './driver/visitor.ts';
import { setUpSite } from './site.ts';
import { waitForHydration } from './journey.ts';

/** French and a right-to-left Arabic added to the built server by files alone. */
const fixture = withFixtureLanguages();
afterAll(() => rmSync(path.dirname(fixture.localesDir), { recursive: true, force: true }));
/** Nothing logged, thrown or blocked: the added languages are as clean as the shipped ones. */
async function expectQuiet(visitor: Visitor) {
  expect(await visitor.problems()).toEqual([]);
}

/** The box of the first element the selector matches, in the viewport's coordinates. */
const box = (visitor: Visitor, selector: string) =>
  visitor.evaluate((s) => {
    const { x, y, width, height } = document.querySelector(s)!.getBoundingClientRect();
    return { x, y, width, height };
  }, selector);

/** Scrolls the element into view unless it is already there, as a visitor would before looking at it. */
const scrollIntoViewIfNeeded = (visitor: Visitor, selector: string) =>
  visitor.evaluate((s) => {
    const element = document.querySelector(s)!;
    const { top, bottom } = element.getBoundingClientRect();
    if (top < 0 || bottom > innerHeight) element.scrollIntoView({ block: 'center', behavior: 'instant' });
  }, selector);

const site = setUpSite({ CONTENT_PATH: fixture.contentPath, LOCALES_PATH: fixture.localesDir });

describe('a language added by files to the built server', () => {
  it('is chosen in the overlay and applied in place, with its texts from its own locale file', async () => {
    const visitor = await site.visitor({ viewport: { width: 390, height: 844 } });
    await visitor.goto('/');
    await waitForHydration(visitor);
    // The overlay's choice that reads "Français".
    const french = await visitor.evaluate(() =>
      [...document.querySelectorAll('.overlay__choice')]
        .find((choice) => choice.textContent?.includes('Français'))
        ?.getAttribute('hreflang'),
    );
    expect(french).toBe('fr');
    await visitor.click(`.overlay__choice[hreflang="${french}"]`);
    await visitor.waitFor(() => !document.querySelector('.overlay'), undefined, { what: 'the overlay to close' });
    expect(await visitor.attribute('html', 'lang')).toBe('fr');
    expect(await visitor.text('.hero__tagline')).toBe('Une soirée. Quatre studios. Une émission.');
    expect(await visitor.evaluate(() => localStorage.getItem('selectedLanguage'))).toBe('fr');
    await expectQuiet(visitor);
  });
});

describe('a returning visitor whose browser stored an added language', () => {
  it('gets it applied in place, the direction included, and the cookie written again', async () => {
    const visitor = await site.visitor({ viewport: { width: 390, height: 844 } });
    await visitor.addInitScript(() => {
      // Not on the blank page a new tab starts with, which has no storage.
      if (location.protocol === 'http:') localStorage.setItem('selectedLanguage', 'ar');
    });
    await visitor.goto('/');
    await visitor.waitFor(() => document.documentElement.lang === 'ar');
    expect(await visitor.attribute('html', 'dir')).toBe('rtl');
    expect(await visitor.count('.overlay')).toBe(0);
    expect(await visitor.cookie('selectedLanguage')).toBe('ar');
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
      await visitor.goto('/');
      expect(await visitor.attribute('html', 'dir')).toBe('rtl');

      // The dropdown sits in the top corner where the text starts: the left one.
      const menu = await box(visitor, '.language-menu summary');
      expect(menu.x).toBeLessThan(40);
      expect(menu.x + menu.width).toBeLessThan(viewport.width / 2);

      // A paragraph's text starts at its right edge.
      const intro = '[aria-labelledby="studios-heading"] .section__intro';
      await scrollIntoViewIfNeeded(visitor, intro);
      const { align, direction, textRight, boxRight, textLeft, boxLeft } = await visitor.evaluate((s) => {
        const element = document.querySelector(s)!;
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
      }, intro);
      expect(direction).toBe('rtl');
      expect(['start', 'right']).toContain(align);
      expect(boxRight - textRight).toBeLessThan(2);
      if (textRight - textLeft < boxRight - boxLeft - 20) expect(textLeft - boxLeft).toBeGreaterThan(10);

      // The studio cards read from the right: in two columns the first is the right one.
      await scrollIntoViewIfNeeded(visitor, '.studio-grid > li');
      const [first, second] = [
        await box(visitor, '.studio-grid > li:nth-child(1)'),
        await box(visitor, '.studio-grid > li:nth-child(2)'),
      ];
      if (viewport.width >= 768) expect(first.x).toBeGreaterThan(second.x);
      else expect(first.y).toBeLessThan(second.y);
      await expectQuiet(visitor);
    },
  );
});
