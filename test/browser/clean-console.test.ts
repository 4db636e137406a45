import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { setUpSite } from './site.ts';
import { isNotFoundStatus, isOfflineThirdPartyFailure } from './page.ts';

const site = setUpSite();

const PAGES = ['/', '/impressum', '/no-such-page'];

describe.each(LANGUAGES)('every page in %s', (lng) => {
  it.each(PAGES)('%s logs no error or warning and violates no security policy', async (path) => {
    const watched = await site.visitor({ language: lng });
    await watched.page.goto(site.url + path, { waitUntil: 'load' });
    // Let hydration, the late slides and the lazy frames happen.
    await watched.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await watched.page.waitForTimeout(800);

    const unexpected = watched.console.filter(
      (entry) =>
        !isOfflineThirdPartyFailure(entry) &&
        !(path === '/no-such-page' && (entry.text.includes(path) || isNotFoundStatus(entry, site.url + path))),
    );
    expect(unexpected).toEqual([]);
    expect(watched.uncaught).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
  });
});

describe('the first visit with the overlay', () => {
  it('logs nothing either, through the choice of a language', async () => {
    const watched = await site.visitor();
    await watched.page.goto(site.url + '/', { waitUntil: 'load' });
    await watched.page.locator('[role="dialog"] a[hreflang="es"]').click();
    await watched.page.locator('[role="dialog"]').waitFor({ state: 'detached' });
    expect(watched.console.filter((entry) => !isOfflineThirdPartyFailure(entry))).toEqual([]);
    expect(await watched.cspViolations()).toEqual([]);
  });
});
