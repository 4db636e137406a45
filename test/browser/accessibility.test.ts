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

async function violations(path: string, language: Language | null): Promise<Violation[]> {
  const visitor = await site.visitor(language ? { language } : {});
  await visitor.goto(path);
  await visitor.waitFor(
    () => !document.querySelector('.hero') || !!document.querySelector('.hero__slides > :nth-child(2)'),
  );
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
