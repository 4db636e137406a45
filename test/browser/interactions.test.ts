import { describe, expect, it } from 'vitest';
import type { Visitor } from './driver/visitor.ts';
import { problemsOf, waitForHydration } from './journey.ts';
import { setUpSite } from './site.ts';

const site = setUpSite();

async function openHydrated(visitor: Visitor, path = '/') {
  await visitor.goto(path);
  await waitForHydration(visitor);
}

const inViewport = (visitor: Visitor, selector: string) =>
  visitor.evaluate((s) => {
    const box = document.querySelector(s)!.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }, selector);

describe('the hero button', () => {
  it('scrolls to the live stream', async () => {
    const visitor = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(visitor);
    expect(await inViewport(visitor, '#rsvp')).toBe(false);
    await visitor.click('.hero a[href="#rsvp"]');
    // The section comes to rest right below the language bar at the top.
    await visitor.waitFor(
      () => {
        const box = document.getElementById('rsvp')!.getBoundingClientRect();
        const bar = document.querySelector('.language-menu')!.getBoundingClientRect();
        return Math.abs(box.top - bar.bottom) < 2;
      },
      undefined,
      { what: '#rsvp to come to rest below the language bar' },
    );
    expect(await inViewport(visitor, '#rsvp')).toBe(true);
  });
});

describe('the studio picker', () => {
  it('shows the address of each studio chosen, and its map once one click has loaded the first', async () => {
    const visitor = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(visitor);
    const frame = 'iframe.map-panel__map';
    expect(await visitor.count(frame)).toBe(0);
    expect(await visitor.text('.map-panel .embed-placeholder__load')).toBe('Karte anzeigen – lädt Google Maps');
    await visitor.click('.map-panel .embed-placeholder__load');
    await visitor.waitFor((s) => !!document.querySelector(s), frame, { what: 'the map frame' });
    expect(await visitor.attribute(frame, 'loading')).toBe('lazy');
    const studios = await visitor.evaluate(() =>
      [...document.querySelectorAll<HTMLOptionElement>('#studio-select option')].map((o) => ({
        id: o.value,
        name: o.textContent!,
      })),
    );
    expect(studios).toHaveLength(4);
    const seenSources = new Set<string>();
    for (const studio of studios) {
      await visitor.select('#studio-select', studio.id);
      // The choice is rendered by React right after the select's change event.
      await visitor.waitFor((name) => document.querySelector('.map-panel__name')?.textContent === name, studio.name, {
        what: `the map panel to show ${studio.name}`,
      });
      expect(await visitor.attribute(frame, 'title')).toBe(`${studio.name} Location`);
      expect(await visitor.text('.map-panel__name')).toBe(studio.name);
      seenSources.add((await visitor.attribute(frame, 'src'))!);
      expect(await visitor.attribute(frame, 'loading')).toBe('lazy');
    }
    expect(seenSources.size).toBe(4);
    expect(await visitor.text('.map-panel__address')).toContain('Dübendorf');
    expect(await visitor.evaluate(() => document.querySelector('.map-panel')!.getBoundingClientRect().height)).toBe(
      24 * 16,
    );
  });
});

describe('the studio cards', () => {
  const columns = (visitor: Visitor) =>
    visitor.evaluate(
      () =>
        new Set([...document.querySelectorAll('.studio-card')].map((c) => Math.round(c.getBoundingClientRect().left)))
          .size,
    );

  it('open each studio in a new tab, in two columns on a wide screen and one on a phone', async () => {
    const visitor = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(visitor);
    const links = await visitor.evaluate(() =>
      [...document.querySelectorAll('.studio-card')].map((c) => ({
        target: c.getAttribute('target'),
        rel: c.getAttribute('rel') ?? '',
      })),
    );
    expect(links).toHaveLength(4);
    for (const link of links) {
      expect(link.target).toBe('_blank');
      expect(link.rel.split(' ')).toContain('noopener');
    }
    expect(await columns(visitor)).toBe(2);
    await visitor.setViewport({ width: 390, height: 844 });
    expect(await columns(visitor)).toBe(1);
  });
});

describe('the footer and the legal notice', () => {
  it('lead to /impressum and its privacy section, and back to /', async () => {
    const visitor = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(visitor);

    await visitor.click('.footer a[href="/impressum"]');
    await visitor.waitForLocation('/impressum');
    // The address changes first; the page is rendered as a transition right after.
    await visitor.waitFor(() => document.querySelector('.legal h1')?.textContent === 'Impressum');
    await visitor.click('a.legal__back');
    await visitor.waitForLocation('/');
    // As above: the landing page follows the address.
    await visitor.waitFor(
      () => {
        const title = document.querySelector('.hero__title');
        const box = title?.getBoundingClientRect();
        return !!box && box.width > 0 && box.height > 0 && getComputedStyle(title!).visibility !== 'hidden';
      },
      undefined,
      { what: 'the hero title to be visible' },
    );

    await visitor.click('.footer a[href="/impressum#Datenschutzerklärung"]');
    await visitor.waitForLocation(/\/impressum#Datenschutzerkl%C3%A4rung$/);
    // As above, the legal notice is rendered just after the address changes, then scrolled to.
    await visitor.waitFor(
      () => {
        const box = document.getElementById('Datenschutzerklärung')?.getBoundingClientRect();
        return box !== undefined && box.top >= 0 && box.top < window.innerHeight;
      },
      undefined,
      { what: 'the privacy section to be scrolled to' },
    );
    await visitor.back();
    await visitor.waitForLocation('/');

    // A visitor arriving on the anchor directly lands on the section too (on a busy machine the
    // browser may scroll to it only after the load event).
    await visitor.goto('/impressum#Datenschutzerklärung');
    await visitor.waitFor(
      () => {
        const box = document.querySelector('#privacy-heading')!.getBoundingClientRect();
        return box.top < window.innerHeight && box.bottom > 0;
      },
      undefined,
      { what: 'the privacy heading to be in view' },
    );
  });
});

describe('an unknown path', () => {
  it('shows the 404 page and logs the path with console.error', async () => {
    const visitor = await site.visitor({ language: 'de' });
    expect((await visitor.goto('/no/such/page')).status).toBe(404);
    await visitor.waitFor(() => document.title.includes('404') || !!document.querySelector('.not-found'));
    expect(await visitor.text('.not-found__message')).toBe('Hoppla! Seite nicht gefunden');
    const loggedPath = async () =>
      (await problemsOf(visitor)).filter((m) => m.kind === 'error' && m.text.includes('/no/such/page')).length;
    // Logged once the page has hydrated, which a busy machine delays.
    const deadline = Date.now() + 10_000;
    while ((await loggedPath()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await loggedPath()).toBe(1);
    await visitor.click('.not-found a[href="/"]');
    await visitor.waitForLocation('/');
  });
});
