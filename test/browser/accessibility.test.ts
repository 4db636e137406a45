import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import type { PageFunction } from './driver/types.ts';
import { setUpSite } from './site.ts';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const PAGES = ['/', '/impressum', '/no-such-page'];

/**
 * axe-core itself, as a function the page runs: its source is the function's body, so it is
 * sent like any other script a test runs in the page, in every engine, and needs no eval there.
 */
const injectAxe = new Function(`${axe.source}\nreturn typeof window.axe;`) as PageFunction<undefined, string>;

interface Violation {
  rule: string;
  impact: string | null | undefined;
  nodes: string[];
}

const site = setUpSite();

/** A phone as Lighthouse's mobile preset has it: 412 px wide. */
const PHONE = { width: 412, height: 823 };

async function violations(
  path: string,
  language: Language | null,
  viewport?: { width: number; height: number },
): Promise<Violation[]> {
  const visitor = await site.visitor({ ...(language ? { language } : {}), ...(viewport ? { viewport } : {}) });
  await visitor.goto(path);
  await visitor.waitFor(
    () => !document.querySelector('.hero') || !!document.querySelector('.hero__slides > :nth-child(2)'),
  );
  // axe scrolls an element into view to find the colours behind it and looks at once: a smooth
  // scroll (the page's, where motion is not reduced) has not moved yet, and Chromium then finds
  // the footer behind a link of the map's panel. The sections below the first screen are laid out
  // only once near the viewport (content-visibility: auto), so each is laid out once first, as a
  // visitor scrolling down would have it.
  await visitor.evaluate(async () => {
    document.documentElement.style.scrollBehavior = 'auto';
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
    }
    window.scrollTo(0, 0);
  });
  expect(await visitor.evaluate(injectAxe, undefined)).toBe('object');
  return visitor.evaluate(async (tags) => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: tags },
    });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, WCAG_22_AA);
}

// The overlay only ever shows before a choice, and so only in German, the default.
describe('with the language overlay open', () => {
  it.each(PAGES)('%s has no WCAG 2.2 A/AA violation', async (path) => {
    expect(await violations(path, null)).toEqual([]);
  });
});

describe.each(LANGUAGES)('with %s chosen', (lng) => {
  it.each(PAGES)('%s has no WCAG 2.2 A/AA violation', async (path) => {
    expect(await violations(path, lng)).toEqual([]);
  });
});

// Where the footer's links wrap and tap targets are small: each must be 24 px or stand apart.
describe('on a phone, 412 px wide', () => {
  it.each(LANGUAGES)('/ with %s chosen has no WCAG 2.2 A/AA violation', async (lng) => {
    expect(await violations('/', lng, PHONE)).toEqual([]);
  });
});
