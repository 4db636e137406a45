import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import type { Visitor } from './driver/visitor.ts';
import { waitForHydration } from './journey.ts';
import { setUpSite } from './site.ts';

const site = setUpSite();

const PHONE = { width: 390, height: 844 };
const SCROLL_STEP_PX = 50;
/** How long the page's height must stay the same to count as laid out. */
const SETTLED_MS = 250;
/** How far the button may sit from the viewport's top and right edges: a corner's margin. */
const CORNER_MARGIN_PX = 16;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What one scroll position shows around the language button. */
interface Step {
  scrollY: number;
  button: Box;
  rightGap: number;
  /** Whether a click at the button's centre reaches the button. */
  clickable: boolean;
  /** The first visible text under the button, if any. */
  textUnderButton: { text: string; element: string; box: Box } | null;
}

/**
 * Scrolls `/` from the top to the bottom in steps and, at each, looks for text under the language
 * button: every text node of the page outside the language control, as the boxes a Range gives
 * it, that is visible and intersects the button's box. Text counts as visible at a point unless
 * something painted above it there (other than the button) hides it with an opaque background:
 * text the page scrolls under an opaque bar is hidden, not covered.
 */
async function scanWhileScrolling(page: Visitor, { waitForFrames }: { waitForFrames: boolean }): Promise<Step[]> {
  const steps: Step[] = [];
  for (let y = 0; steps.length < 2000; y += SCROLL_STEP_PX) {
    const { step, bottom } = await scrollAndLook(page, y, waitForFrames);
    steps.push(step);
    // Sections are laid out as they come near, so the page's height is asked at every step; the
    // last ones may take their height only after the look that reached the bottom (WebKit, scripts off).
    if (y >= bottom && (await settledBottom(page)) <= y) break;
  }
  return steps;
}

/** The page's scroll bottom once it has stayed put for SETTLED_MS. */
async function settledBottom(page: Visitor): Promise<number> {
  const bottomNow = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  let bottom = await bottomNow();
  for (let tries = 0; tries < 10; tries++) {
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS));
    const again = await bottomNow();
    if (again === bottom) return bottom;
    bottom = again;
  }
  return bottom;
}

/**
 * Scrolls to `y` and looks: with scripts off the page runs no frame callbacks, and reading the
 * boxes brings the layout up to date anyway.
 */
function scrollAndLook(page: Visitor, y: number, waitForFrame: boolean): Promise<{ step: Step; bottom: number }> {
  return page.evaluate(
    async ({ y, waitForFrame }: { y: number; waitForFrame: boolean }) => {
      const control = document.querySelector('.language-menu')!;
      const button = control.querySelector('summary')!;
      const boxOf = (r: DOMRect): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
      const opaque = (element: Element) => {
        const color = getComputedStyle(element).backgroundColor;
        const alpha = /^rgba\(.*,\s*([\d.]+)\)$/.exec(color);
        return alpha ? Number(alpha[1]) === 1 : color.startsWith('rgb(');
      };
      const visibleAt = (x: number, y: number, element: Element) => {
        for (const hit of document.elementsFromPoint(x, y)) {
          if (button.contains(hit)) continue;
          if (hit === element || hit.contains(element)) return true;
          if (opaque(hit)) return false;
        }
        return false; // not hit at all: clipped away
      };
      const samples = (from: number, to: number) =>
        to - from > 2 ? [from + 1, (from + to) / 2, to - 1] : [(from + to) / 2];

      const textUnder = (b: DOMRect): Step['textUnderButton'] => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const element = node.parentElement;
          if (!element || !node.textContent!.trim() || control.contains(element)) continue;
          if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) {
            const left = Math.max(r.left, b.left);
            const right = Math.min(r.right, b.right);
            const top = Math.max(r.top, b.top);
            const bottom = Math.min(r.bottom, b.bottom);
            if (right - left < 0.5 || bottom - top < 0.5) continue;
            const seen = samples(left, right).some((x) => samples(top, bottom).some((y) => visibleAt(x, y, element)));
            if (seen) {
              const text = node.textContent!.trim().replace(/\s+/g, ' ').slice(0, 80);
              const name =
                element.tagName.toLowerCase() +
                (element.getAttribute('class') ? `.${element.getAttribute('class')}` : '');
              return { text, element: name, box: boxOf(r) };
            }
          }
        }
        return null;
      };

      window.scrollTo({ top: y, behavior: 'instant' });
      if (waitForFrame) await new Promise(requestAnimationFrame);
      const b = button.getBoundingClientRect();
      const centre = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      const step: Step = {
        scrollY: window.scrollY,
        button: boxOf(b),
        rightGap: document.documentElement.clientWidth - b.right,
        clickable: centre !== null && button.contains(centre),
        textUnderButton: textUnder(b),
      };
      return { step, bottom: document.documentElement.scrollHeight - window.innerHeight };
    },
    { y, waitForFrame },
  );
}

const describeBox = (b: Box) =>
  `${Math.round(b.left)},${Math.round(b.top)}–${Math.round(b.right)},${Math.round(b.bottom)}`;

describe.each(LANGUAGES)('the language button on a 390×844 phone, in %s', (lng) => {
  it.each([
    { scripts: 'on', javaScript: true },
    { scripts: 'off', javaScript: false },
  ])(
    'stays at the top right, clickable and over no text, at every 50 px from the top to the bottom, scripts $scripts',
    async ({ javaScript }) => {
      const page = await site.visitor({ language: lng, viewport: PHONE, javaScript });
      await page.goto('/');
      if (javaScript) await waitForHydration(page);

      const steps = await scanWhileScrolling(page, { waitForFrames: javaScript });
      const bottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      // The whole page was scrolled through, step by step.
      expect(steps.length).toBeGreaterThan(bottom / SCROLL_STEP_PX);
      expect(steps.at(-1)!.scrollY).toBe(bottom);

      for (const step of steps) {
        const where = `at scrollY ${step.scrollY} (button ${describeBox(step.button)})`;
        const under = step.textUnderButton;
        expect(
          under,
          under ? `"${under.text}" (${under.element}, ${describeBox(under.box)}) is under the button ${where}` : '',
        ).toBeNull();
        expect(step.button.top, `the button's top ${where}`).toBeGreaterThanOrEqual(0);
        expect(step.button.top, `the button's top ${where}`).toBeLessThanOrEqual(CORNER_MARGIN_PX);
        expect(step.rightGap, `the button's gap to the right edge ${where}`).toBeGreaterThanOrEqual(0);
        expect(step.rightGap, `the button's gap to the right edge ${where}`).toBeLessThanOrEqual(CORNER_MARGIN_PX);
        expect(step.clickable, `a click at the button's centre reaches it ${where}`).toBe(true);
      }
    },
  );
});

describe('the language bar on a 390×844 phone', () => {
  it('opens from the middle of the page with every language in view and clickable', async () => {
    const page = await site.visitor({ language: 'de', viewport: PHONE });
    await page.goto('/');
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight / 2, behavior: 'instant' }));
    await page.click('.language-menu summary');
    const links = await page.evaluate(() =>
      [...document.querySelectorAll('.language-menu a[hreflang]')].map((a) => {
        const r = a.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {
          inView: r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth,
          clickable: hit !== null && a.contains(hit),
        };
      }),
    );
    expect(links).toEqual(LANGUAGES.map(() => ({ inView: true, clickable: true })));
  });

  it.each([false, true])(
    'brings each element the keyboard focuses out from under the bar, with reduced motion: %s',
    async (reducedMotion) => {
      const page = await site.visitor({ language: 'de', viewport: PHONE, reducedMotion });
      await page.goto('/');
      await waitForHydration(page);
      const isFrame = await page.evaluate(() => {
        const control = document.querySelector('.language-menu')!;
        const focusable = [
          ...document.querySelectorAll<HTMLElement>('a[href], button, input, select, summary, iframe'),
        ].filter((el) => !control.contains(el) && !el.classList.contains('skip-link') && el.checkVisibility());
        focusable.forEach((el, i) => (el.dataset.focusProbe = String(i)));
        return focusable.map((el) => el.tagName === 'IFRAME');
      });
      const covered: string[] = [];
      let placedUnder = 0;
      for (let i = 1; i < isFrame.length; i++) {
        // Tab from a frame would go into it.
        if (isFrame[i] || isFrame[i - 1]) continue;
        // The element's top slides 10 px under the bar, the one before it has the focus: then Tab.
        const placed = await page.evaluate((i: number) => {
          const probe = (n: number) => document.querySelector<HTMLElement>(`[data-focus-probe="${n}"]`)!;
          probe(i - 1).focus({ preventScroll: true });
          const bar = document.querySelector('.language-menu')!.getBoundingClientRect();
          window.scrollBy({ top: probe(i).getBoundingClientRect().top - (bar.bottom - 10), behavior: 'instant' });
          const top = probe(i).getBoundingClientRect().top;
          return top < bar.bottom && top > bar.top;
        }, i);
        await page.press(null, 'Tab');
        const found = await page.evaluate(async (i: number) => {
          // Waits until the page has stopped scrolling (it may scroll smoothly).
          for (let still = 0, last = NaN; still < 3;) {
            await new Promise(requestAnimationFrame);
            still = window.scrollY === last ? still + 1 : 0;
            last = window.scrollY;
          }
          const el = document.querySelector<HTMLElement>(`[data-focus-probe="${i}"]`)!;
          const f = el.getBoundingClientRect();
          const c = document.querySelector('.language-menu')!.getBoundingClientRect();
          // Scrolling goes by whole pixels, the boxes by fractions: less than one pixel under is none.
          const under = f.left < c.right && f.right > c.left && f.top < c.bottom - 1 && f.bottom > c.top;
          return {
            focused: document.activeElement === el,
            under,
            what: `${el.outerHTML.slice(0, 60)}… at scrollY ${window.scrollY}`,
          };
        }, i);
        expect(found.focused, found.what).toBe(true);
        if (placed) placedUnder++;
        if (found.under) covered.push(found.what);
      }
      expect(placedUnder).toBeGreaterThanOrEqual(4);
      expect(covered).toEqual([]);
    },
  );
});
