import { describe, expect, it } from 'vitest';
import { type Language } from '../../shared/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { wcagViolations, type Violation } from './axe.ts';
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
