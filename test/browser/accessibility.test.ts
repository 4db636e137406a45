import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { setUpChromiumSite as setUpSite } from './chromium-site.ts';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const PAGES = ['/', '/impressum', '/no-such-page'];

const site = setUpSite();

async function violations(path: string, language: Language | null) {
  const { page } = await site.visitor(language ? { language } : {});
  await page.goto(site.url + path, { waitUntil: 'load' });
  await page.waitForFunction(
    () => !document.querySelector('.hero') || document.querySelector('.hero__slide:nth-child(2)'),
  );
  const result = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  return result.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    nodes: v.nodes.map((n) => n.target.join(' ')),
  }));
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
