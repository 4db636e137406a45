import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import type { Problem } from './driver/types.ts';
import { isNotFoundStatus, isOfflineThirdPartyFailure, problemsOf, waitForHydration } from './journey.ts';
import { setUpSite } from './site.ts';

const site = setUpSite();

const PAGES = ['/', '/impressum', '/no-such-page'];

describe.each(LANGUAGES)('every page in %s', (lng) => {
  it.each(PAGES)('%s logs no error or warning and violates no security policy', async (path) => {
    const visitor = await site.visitor({ language: lng });
    await visitor.goto(path);
    // The 404 page logs its error once hydrated: a fixed pause alone ended before on a busy machine.
    await waitForHydration(visitor);
    // Let the late slides and the lazy frames happen.
    await visitor.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await new Promise((resolve) => setTimeout(resolve, 800));

    const problems = await problemsOf(visitor);
    const notFound = (entry: Problem) => entry.text.includes(path) || isNotFoundStatus(entry, path);
    if (path === '/no-such-page') {
      // The one error the page logs on purpose, which shows the console is being read.
      expect(problems.filter((entry) => entry.kind === 'error' && entry.text.includes(path))).toHaveLength(1);
      expect(problems.filter((entry) => !notFound(entry))).toEqual([]);
    } else expect(problems).toEqual([]);
  });
});

describe('the first visit with the overlay', () => {
  it('logs nothing either, through the choice of a language', async () => {
    const visitor = await site.visitor();
    await visitor.goto('/');
    await waitForHydration(visitor);
    await visitor.click('[role="dialog"] a[hreflang="es"]');
    await visitor.waitFor(() => !document.querySelector('[role="dialog"]'));
    expect(await problemsOf(visitor)).toEqual([]);
  });
});

// WebDriver does not show WebKit's own console; MiniBrowser on its own writes it, messages of the
// engine included (a blocked or failed load, a deprecation), which no script in the page sees.
describe.runIf(site.engine === 'webkit')('WebKit on its own, without a driver', () => {
  it.each(LANGUAGES.flatMap((lng) => PAGES.map((path) => [lng, path] as const)))(
    'writes no error or warning of its own on %s %s',
    async (lng, path) => {
      const written = await site.launched.consoleOfPlainVisit!(`${site.serverUrl}${path}?lng=${lng}`);
      const notFoundLog = (entry: Problem) => path === '/no-such-page' && entry.text.includes(path);
      expect(written.filter((entry) => !isOfflineThirdPartyFailure(entry) && !notFoundLog(entry))).toEqual([]);
      // The 404 page's own log shows that the engine's console is being read.
      if (path === '/no-such-page') expect(written.filter(notFoundLog)).toHaveLength(1);
    },
  );
});
