import { describe, expect, it } from 'vitest';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { scrollThrough, wcagViolations, type Violation } from './axe.ts';
import { setUpSite } from './site.ts';

const PAGES = ['/', '/impressum', '/no-such-page'];

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
  return wcagViolations(visitor);
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

// Lighthouse's contrast audit does not scroll: it asks what lies under a card's text where layout
// puts it, and a section not yet laid out that holds less than its height leaves the footer there.
describe('on a phone, before the sections below the first screen are laid out', () => {
  it.each(LANGUAGES)('each holds its height within a fifth, with %s chosen', async (lng) => {
    const visitor = await site.visitor({ language: lng, viewport: PHONE });
    await visitor.goto('/');
    const heights = () =>
      visitor.evaluate(() =>
        [...document.querySelectorAll('.section')].map((section) => ({
          section: section.getAttribute('aria-labelledby'),
          height: section.getBoundingClientRect().height,
        })),
      );
    const held = await heights();
    await scrollThrough(visitor);
    const laidOut = await heights();
    expect(held.map(({ section }) => section)).toEqual(laidOut.map(({ section }) => section));
    const off = held.filter(({ height }, i) => Math.abs(height / laidOut[i]!.height - 1) > 0.2);
    expect(off, `laid out: ${JSON.stringify(laidOut)}`).toEqual([]);
  });
});
