import { describe, expect, it } from 'vitest';
import { loadContent } from '../../server/content/site-content.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { addressLine } from '../../shared/page-data.ts';
import { DAY_MS } from '../../shared/event-clock.ts';
import { contentFileForEvent, wholeMinuteFromNow } from '../helpers/event-times.ts';
import type { Visitor } from './driver/visitor.ts';
import { problemsOf } from './journey.ts';
import { setUpSite } from './site.ts';

const { studios } = loadContent(DEFAULT_CONTENT_PATH).public;

// The shipped content with its event three days ahead, so that the hero offers the calendar
// entry whatever the day the suite runs.
const site = setUpSite({ CONTENT_PATH: contentFileForEvent(wholeMinuteFromNow(3 * DAY_MS), 90) });

/** An English page for a visitor whose browser runs no script, as the overlay's choice leaves it. */
async function englishWithoutScripts(): Promise<Visitor> {
  const visitor = await site.visitor({ javaScript: false, language: 'en' });
  await visitor.goto('/?lng=en');
  return visitor;
}

describe('with JavaScript turned off', () => {
  it('runs none of the page’s scripts', async () => {
    const visitor = await englishWithoutScripts();
    // The inline starter and the app never run: no request for the app module, nothing hydrated.
    expect(visitor.line.requests.filter((request) => request.destination === 'script')).toEqual([]);
    expect(await visitor.count('img.hero__slide')).toBe(1);
  });

  it('a first visit chooses English through the overlay and can read every section', async () => {
    const visitor = await site.visitor({ javaScript: false });
    await visitor.goto('/');
    expect(await visitor.isVisible('[role="dialog"]')).toBe(true);
    expect(await visitor.text('[role="dialog"] h2')).toBe('Select Language');

    await visitor.click('[role="dialog"] a[hreflang="en"]');
    await visitor.waitForLocation('/?lng=en');
    await visitor.waitFor(() => document.documentElement.lang === 'en' && document.readyState === 'complete');
    expect(await visitor.attribute('html', 'lang')).toBe('en');
    expect(await visitor.count('[role="dialog"]')).toBe(0);
    expect(await visitor.cookie('selectedLanguage')).toBe('en');

    expect(await visitor.text('h1.hero__title')).toBe('Horizon Live 2027');
    expect(await visitor.text('.hero__tagline')).toBe('One evening. Four studios. One shared broadcast.');
    expect(await visitor.isVisible('.hero__when')).toBe(true);
    expect(await visitor.text('.hero__studio')).toBe('Studio München');
    expect(await visitor.count('img.hero__slide.is-active')).toBe(1);
    expect(await visitor.text('#video-heading')).toBe('The live stream');
    // In the player's place, a link to the stream at its provider; no frame loads without scripts.
    expect(await visitor.isVisible('#rsvp .embed-placeholder__link')).toBe(true);
    expect(await visitor.isVisible('#rsvp .embed-placeholder__load')).toBe(false);
    // Under it, the provider named with its privacy policy; "always load" needs scripts.
    expect(await visitor.isVisible('#rsvp .embed-choice__notice a')).toBe(true);
    expect(await visitor.isVisible('#rsvp .embed-choice__always')).toBe(false);
    expect(await visitor.count('iframe')).toBe(0);
    expect(await visitor.text('#studios-heading')).toBe('Our studios');
    expect(await visitor.count('.studio-card', { visible: true })).toBe(4);
    expect(await visitor.text('#location-heading')).toBe('How to find us');
    expect(await visitor.count('.footer a', { visible: true })).toBe(2);
    expect(await visitor.attribute('.hero__calendar', 'href')).toBe('/event.ics?lng=en');
    // The page behind the overlay is no longer inert: its links take focus and clicks.
    expect(await visitor.count('.page[inert]')).toBe(0);
  });

  it('lists every studio address with its map link, and hides the controls that need scripts', async () => {
    const visitor = await englishWithoutScripts();
    const listed = await visitor.evaluate(() =>
      [...document.querySelectorAll('.studio-list__item')].map((item) => {
        const address = item.querySelector('.studio-list__address')!;
        const box = address.getBoundingClientRect();
        return {
          visible: box.width > 0 && box.height > 0 && getComputedStyle(address).visibility !== 'hidden',
          address: address.textContent,
          map: item.querySelector('a')?.getAttribute('href'),
        };
      }),
    );
    expect(listed).toEqual(
      studios.map((studio) => ({ visible: true, address: addressLine(studio.byLanguage.en!), map: studio.mapLinkUrl })),
    );
    expect(await visitor.isVisible('#studio-select')).toBe(false);
    expect(await visitor.isVisible('.hero__pause')).toBe(false);
  });

  it('opens the language dropdown and switches to Spanish', async () => {
    const visitor = await englishWithoutScripts();
    expect(await visitor.isVisible('.language-menu details a[hreflang="es"]')).toBe(false);
    await visitor.click('.language-menu details summary');
    expect(await visitor.attribute('.language-menu details', 'open')).toBe('');
    expect(await visitor.isVisible('.language-menu details a[hreflang="es"]')).toBe(true);
    await visitor.click('.language-menu details a[hreflang="es"]');
    await visitor.waitForLocation('/?lng=es');
    await visitor.waitFor(() => document.documentElement.lang === 'es' && document.readyState === 'complete');
    expect(await visitor.text('#studios-heading')).toBe('Nuestros estudios');
    expect(await visitor.cookie('selectedLanguage')).toBe('es');

    await visitor.goto('/');
    expect(await visitor.attribute('html', 'lang')).toBe('es');
    expect(await visitor.count('[role="dialog"]')).toBe(0);
  });
});

describe('with JavaScript on', () => {
  it('shows each studio address once: the list for visitors without scripts stays hidden', async () => {
    const visitor = await site.visitor();
    await visitor.goto('/?lng=en');
    // Once hydrated the carousel holds every slide, not only the server's first.
    await visitor.waitFor(() => document.querySelectorAll('img.hero__slide').length > 1);

    expect(await visitor.count('.studio-list__address')).toBe(0);
    expect(await visitor.isVisible('#studio-select')).toBe(true);
    for (const studio of studios) {
      const shown = await visitor.evaluate((address) => {
        const words = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();
        // The innermost elements whose whole text is the address, as a visitor sees them.
        return [...document.body.querySelectorAll('*')].filter((element) => {
          if (words(element) !== address || [...element.children].some((child) => words(child) === address))
            return false;
          const box = element.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
        }).length;
      }, addressLine(studio.byLanguage.en!));
      expect(shown).toBeLessThanOrEqual(1);
    }
    const problems = await problemsOf(visitor);
    expect(problems.filter((problem) => !/Failed to load resource|ERR_/.test(problem.text))).toEqual([]);
  });
});
