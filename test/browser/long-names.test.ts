import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { atTheLimits, LONG_WORD } from '../helpers/long-texts.ts';
import type { Visitor } from './driver/visitor.ts';
import { waitForHydration } from './journey.ts';
import { keepScreenshot } from './screenshots.ts';
import { setUpSite } from './site.ts';

/**
 * The layout at the limits the content check enforces (server/content/text-limits.ts): on a
 * 390×844 phone, with the name holding a 60-letter word and every text the hero shows as long as
 * allowed, in every language, no page is wider than the screen and the hero's button is within the
 * first two screens. The visitor is in Kiritimati, so that the hero also shows the times on their
 * own clock; the logo is the drawn one, so that it shows the name twice.
 */
const fixture = atTheLimits();
const site = setUpSite({ CONTENT_PATH: fixture.contentPath, LOCALES_PATH: fixture.localesDir });

const PHONE = { width: 390, height: 844 };
const VISITOR = { viewport: PHONE, timeZone: 'Pacific/Kiritimati' };

/**
 * What sticks out of the screen sideways: the document wider than the viewport without any
 * scrollbar (so `scrollWidth <= innerWidth` too), or any element's box or any visible text's line
 * boxes reaching past its left or right edge (overflow that a clipping box, such as the hero's or
 * a section's, hides from the document's width). The page is scrolled from top to bottom a screen
 * at a time, so that every section below the first screen is laid out.
 */
function sidewaysOverflow(page: Visitor): Promise<string[]> {
  return page.evaluate(async () => {
    const found = new Set<string>();
    // The viewport's width less any scrollbar's: what the page may take without scrolling sideways.
    const width = document.documentElement.clientWidth;
    const outside = (r: DOMRect) => r.width > 0 && r.height > 0 && (r.left < -0.5 || r.right > width + 0.5);
    const name = (element: Element) =>
      element.tagName.toLowerCase() + (element.getAttribute('class') ? `.${element.getAttribute('class')}` : '');
    const at = (r: DOMRect) => `${Math.round(r.left)}–${Math.round(r.right)} px`;
    // Two frames, for the sections now in view to be laid out; a page that paints no frame meanwhile
    // (a busy machine) is measured all the same, its boxes brought up to date by the measuring.
    const frame = () =>
      Promise.race([
        new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]);
    const look = () => {
      const { scrollWidth } = document.documentElement;
      if (scrollWidth > width) found.add(`the document is ${scrollWidth} px wide, the viewport ${width} px`);
      for (const element of document.body.querySelectorAll('*')) {
        if (element.closest('.visually-hidden, noscript, script, style, option')) continue;
        const box = element.getBoundingClientRect();
        if (outside(box)) found.add(`${name(element)} at ${at(box)}`);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement;
        if (!element || !node.textContent!.trim()) continue;
        if (element.closest('.visually-hidden, noscript, script, style, option')) continue;
        if (!element.checkVisibility({ visibilityProperty: true })) continue;
        range.selectNodeContents(node);
        for (const r of range.getClientRects())
          if (outside(r)) found.add(`"${node.textContent!.trim().slice(0, 40)}…" (${name(element)}) at ${at(r)}`);
      }
    };
    for (let y = 0; ; y += window.innerHeight) {
      window.scrollTo({ top: y, behavior: 'instant' });
      await frame();
      look();
      if (y >= document.documentElement.scrollHeight - window.innerHeight) break;
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    return [...found];
  });
}

describe.each(LANGUAGES)('the longest texts allowed, on a 390×844 phone, in %s', (lng) => {
  it("/: the hero's button within the first two screens, and nothing wider than the screen", async () => {
    const page = await site.visitor({ ...VISITOR, language: lng });
    await page.goto('/');
    await waitForHydration(page);
    // The texts at their limits are the ones shown: the name twice, and the visitor's own times.
    expect(await page.text('.hero__title')).toContain(LONG_WORD);
    expect(await page.text('.logo__name')).toContain(LONG_WORD);
    // The visitor's own times come once the browser knows its zone, after hydration.
    await page.waitFor(() => document.querySelector('[data-testid="visitor-time"]'), undefined, {
      what: "the visitor's own times",
    });

    const button = await page.evaluate(() => {
      const box = document.querySelector('.hero__actions .button--primary')!.getBoundingClientRect();
      return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
    });
    expect(button.top, "the hero's button's top, from the page's top").toBeLessThanOrEqual(2 * PHONE.height);
    expect(button.bottom, "the hero's button's bottom, from the page's top").toBeLessThanOrEqual(2 * PHONE.height);
    expect(await sidewaysOverflow(page)).toEqual([]);
    await keepScreenshot(page, `limits-${lng}-390x844-${site.engine}.png`);
  });

  it.each(['/impressum', '/no-such-page'])('%s: nothing wider than the screen', async (path) => {
    const page = await site.visitor({ ...VISITOR, language: lng });
    await page.goto(path);
    await waitForHydration(page);
    expect(await sidewaysOverflow(page)).toEqual([]);
  });
});
