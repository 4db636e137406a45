import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFixtureLanguages } from '../helpers/fixture-languages.ts';
import type { Visitor } from './driver/visitor.ts';
import { problemsOf, waitForHydration } from './journey.ts';
import { keepScreenshot } from './screenshots.ts';
import { setUpSite } from './site.ts';

/** Arabic, written right to left, added to the built server by files alone (with French). */
const fixture = withFixtureLanguages();
afterAll(() => rmSync(path.dirname(fixture.localesDir), { recursive: true, force: true }));
const site = setUpSite({ CONTENT_PATH: fixture.contentPath, LOCALES_PATH: fixture.localesDir });

interface Glyph {
  character: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * The box on screen of each character of the first occurrence of `text` in the element, in
 * written order, spaces left out: each from a Range over that one character (its client rects),
 * so what is measured is where the character is drawn, not the order of the text content.
 */
const glyphsOf = (visitor: Visitor, selector: string, text: string) =>
  visitor.evaluate(
    ([s, wanted]) => {
      const element = document.querySelector(s);
      if (!element) return { error: `no ${s}` };
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const places: { node: Text; offset: number }[] = [];
      let all = '';
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let offset = 0; offset < node.data.length; offset++) places.push({ node, offset });
        all += node.data;
      }
      const start = all.indexOf(wanted);
      if (start < 0) return { error: `"${wanted}" is not in ${s}: "${all}"` };
      const glyphs: Glyph[] = [];
      for (let i = start; i < start + wanted.length; i++) {
        if (/\s/.test(all[i]!)) continue;
        const { node, offset } = places[i]!;
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        const rect = [...range.getClientRects()].find((r) => r.width > 0) ?? range.getBoundingClientRect();
        glyphs.push({ character: all[i]!, left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom });
      }
      return { glyphs };
    },
    [selector, text] as const,
  );

/**
 * Where the written order breaks on screen: each character is to the right of the one written
 * before it on the same line, or on a line further down. Empty when the order holds.
 */
function outOfOrder(glyphs: Glyph[]): string[] {
  const broken: string[] = [];
  for (let i = 1; i < glyphs.length; i++) {
    const [before, after] = [glyphs[i - 1]!, glyphs[i]!];
    const sameLine = Math.abs(after.top - before.top) < (before.bottom - before.top) / 2;
    const inOrder = sameLine ? after.left >= before.right - 1 : after.top > before.top;
    if (!inOrder)
      broken.push(
        `"${after.character}" (x ${after.left.toFixed(0)}, y ${after.top.toFixed(0)}) is not after "${before.character}" (x ${before.left.toFixed(0)}, y ${before.top.toFixed(0)})`,
      );
  }
  return broken;
}

/**
 * For each of the texts, where its written order breaks on screen (empty where it holds): all of
 * them measured before any is judged, so a failure names every scrambled text at once.
 */
async function orderBreaks(visitor: Visitor, texts: [selector: string, text: string][]) {
  const breaks: Record<string, string[]> = {};
  for (const [selector, text] of texts) {
    const measured = await glyphsOf(visitor, selector, text);
    if ('error' in measured) throw new Error(measured.error);
    expect(measured.glyphs).toHaveLength(text.replace(/\s/g, '').length);
    breaks[text] = outOfOrder(measured.glyphs);
  }
  return breaks;
}

/** What `orderBreaks` gives when every text keeps its order. */
const noBreaks = (texts: [string, string][]) => Object.fromEntries(texts.map(([, text]) => [text, []]));

/**
 * Opens the page and waits for the element to be there (WebKit's driver may hand back a page whose
 * streamed document has not been parsed to its end) and for the app to have taken the page over:
 * the page asks for the app module only after its first paint, and a journey that goes on to the
 * next page while that import is under way aborts it, which WebKit reports as an uncaught
 * "Importing a module script failed" of the page left.
 */
async function open(visitor: Visitor, pagePath: string, selector: string) {
  await visitor.goto(pagePath);
  await visitor.waitFor((s) => document.querySelector(s), selector, { what: `${selector} on ${pagePath}` });
  await waitForHydration(visitor);
}

/** Brings the element to the middle of the viewport, as a visitor would scroll to read it. */
const scrollTo = (visitor: Visitor, selector: string) =>
  visitor.evaluate(
    (s) => document.querySelector(s)!.scrollIntoView({ block: 'center', behavior: 'instant' }),
    selector,
  );

/**
 * Which way an arrow points on screen, +1 to the right and -1 to the left: the arrow character
 * drawn (a pseudo-element's content or the first of the element's text that is an arrow) and
 * every horizontal flip of the transforms on the way up from it to the element (mirroring turns
 * ← to →).
 */
const arrowPointing = (visitor: Visitor, selector: string, pseudo: '::after' | null) =>
  visitor.evaluate(
    ([s, p]) => {
      const rightward = /[→↗↘⟶]/u;
      const leftward = /[←↖↙⟵]/u;
      const root = document.querySelector(s);
      if (!root) return { error: `no ${s}` };
      const flip = (style: CSSStyleDeclaration) => {
        const matrix = style.transform === 'none' ? null : new DOMMatrixReadOnly(style.transform);
        return matrix && matrix.a < 0 ? -1 : 1;
      };
      let character: string;
      let sign: number;
      let element: Element | null;
      if (p) {
        const style = getComputedStyle(root, p);
        character = style.content;
        sign = flip(style);
        element = root;
      } else {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        let node = walker.nextNode();
        while (node && !rightward.test(node.nodeValue!) && !leftward.test(node.nodeValue!)) node = walker.nextNode();
        if (!node) return { error: `no arrow in ${s}` };
        character = node.nodeValue!;
        sign = 1;
        element = node.parentElement;
      }
      for (; element && element !== root.parentElement; element = element.parentElement)
        sign *= flip(getComputedStyle(element));
      const drawn = rightward.test(character) ? 1 : leftward.test(character) ? -1 : 0;
      return { pointing: drawn * sign };
    },
    [selector, pseudo] as const,
  );

async function expectPointing(visitor: Visitor, selector: string, pseudo: '::after' | null, pointing: 1 | -1) {
  const measured = await arrowPointing(visitor, selector, pseudo);
  if ('error' in measured) throw new Error(measured.error);
  expect(measured.pointing, `the arrow of ${selector}${pseudo ?? ''}`).toBe(pointing);
}

/** Where the element's box is, horizontally. */
const horizontally = (visitor: Visitor, selector: string) =>
  visitor.evaluate((s) => {
    const { left, right } = document.querySelector(s)!.getBoundingClientRect();
    return { left, right };
  }, selector);

const PHONE = '+43 1 234 56 78';

describe('a right-to-left page', () => {
  it('shows the content file’s data in its written order on the legal notice: phone, postal code and town, e-mail, web', async () => {
    const visitor = await site.visitor({ language: 'ar', viewport: { width: 1280, height: 800 } });
    await open(visitor, '/impressum', '.legal__updated');
    expect(await visitor.attribute('html', 'dir')).toBe('rtl');
    await scrollTo(visitor, '[aria-labelledby="owner-heading"]');
    const texts: [string, string][] = [
      ['[aria-labelledby="owner-heading"] > p', 'Praterstraße 1'],
      ['[aria-labelledby="owner-heading"] > p', '1020 Wien'],
      ['a[href^="tel:"]', PHONE],
      ['a[href^="mailto:"]', 'office@horizon-live.example.com'],
      ['.legal__facts a[href^="https:"]', 'https://horizon-live.example.com'],
    ];
    expect(await orderBreaks(visitor, texts)).toEqual(noBreaks(texts));
    // The data keeps its order, the page its direction: the number sits at the start of its line, the right.
    const [number, row] = [
      await horizontally(visitor, 'a[href^="tel:"]'),
      await horizontally(visitor, '.legal__facts dd'),
    ];
    expect(row.right - number.right).toBeLessThan(2);
    // In running text too: the controller's address in the privacy policy.
    const scope = '.legal__privacy h3 + p';
    await scrollTo(visitor, scope);
    const running: [string, string][] = [[scope, 'Praterstraße 1, 1020 Wien']];
    expect(await orderBreaks(visitor, running)).toEqual(noBreaks(running));
    expect(await problemsOf(visitor)).toEqual([]);
  });

  it('sets the event’s name in the drawn logo right to left, the mark at the line’s start', async () => {
    const visitor = await site.visitor({ language: 'ar', viewport: { width: 390, height: 844 } });
    await open(visitor, '/', '.logo__name');
    const logo = await visitor.evaluate(() => {
      const box = (s: string) => {
        const { left, right } = document.querySelector(s)!.getBoundingClientRect();
        return { left, right };
      };
      const name = document.querySelector('.logo__name')!;
      // Where the first word's letters are, not its line's box.
      const letters = document.createRange();
      letters.selectNodeContents(document.querySelector('.logo__lead')!);
      return {
        label: document.querySelector('.logo')!.getAttribute('aria-label'),
        direction: getComputedStyle(name).direction,
        mark: box('.logo__mark'),
        name: box('.logo__name'),
        lead: { left: letters.getBoundingClientRect().left, right: letters.getBoundingClientRect().right },
      };
    });
    expect(logo.label).toBe('أفق لايف 2027');
    expect(logo.direction).toBe('rtl');
    expect(logo.mark.left, 'the mark to the right of the name').toBeGreaterThanOrEqual(logo.name.right);
    expect(Math.abs(logo.name.right - logo.lead.right), 'the first word set from the right').toBeLessThan(2);
    expect(await problemsOf(visitor)).toEqual([]);
    await keepScreenshot(visitor, `right-to-left-ar-390x844-${site.engine}.png`);
  });

  it('sets the programme right to left: each time at the line’s start, on the right of its segment', async () => {
    const visitor = await site.visitor({ language: 'ar', viewport: { width: 390, height: 844 } });
    await open(visitor, '/', '.programme');
    await scrollTo(visitor, '.programme');
    const rows = await visitor.evaluate(() =>
      [...document.querySelectorAll('[data-testid="programme-segment"]')].map((row) => ({
        time: row.querySelector('.programme__when')!.getBoundingClientRect().left,
        title: row.querySelector('.programme__title')!.getBoundingClientRect().right,
      })),
    );
    expect(rows).toHaveLength(7);
    for (const { time, title } of rows)
      expect(time, 'the time to the right of the title').toBeGreaterThanOrEqual(title);
    expect(await problemsOf(visitor)).toEqual([]);
    await keepScreenshot(visitor, `programme-ar-390x844-${site.engine}.png`);
  });

  it('shows a studio’s address in its written order in the map panel', async () => {
    const visitor = await site.visitor({ language: 'ar', viewport: { width: 1280, height: 800 } });
    await visitor.goto('/');
    await waitForHydration(visitor);
    await visitor.select('#studio-select', 'vienna');
    await visitor.waitFor(() => document.querySelector('.map-panel__address')?.textContent?.includes('1020 Wien'));
    await scrollTo(visitor, '.map-panel__address');
    const address: [string, string][] = [['.map-panel__address', 'Vorgartenstraße 206, 1020 Wien']];
    expect(await orderBreaks(visitor, address)).toEqual(noBreaks(address));
    expect(await problemsOf(visitor)).toEqual([]);
  });

  // Each visitor ends on the landing page: leaving it while its later slides load would abort them,
  // which WebKit reports as errors.
  it.each([
    { language: 'ar', dir: 'rtl', back: 1, outward: -1 },
    { language: 'en', dir: 'ltr', back: -1, outward: 1 },
  ] as const)(
    'points the arrows along the line of an $dir page: the back link’s to the inline start, a studio card’s outward past the inline end',
    async ({ language, dir, back, outward }) => {
      const visitor = await site.visitor({ language, viewport: { width: 1280, height: 800 } });
      await open(visitor, '/impressum', 'a.legal__back');
      expect(await visitor.attribute('html', 'dir')).toBe(dir);
      // In right to left, mirrored: pointing right, to where the line starts.
      await expectPointing(visitor, 'a.legal__back', null, back);
      await open(visitor, '/', '.studio-card__visit');
      await scrollTo(visitor, '.studio-card__visit');
      // In right to left, mirrored: up and to the left, out of the page past the line's end.
      await expectPointing(visitor, '.studio-card__visit', '::after', outward);
      expect(await problemsOf(visitor)).toEqual([]);
    },
  );
});
