import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { waitForHydration } from './page.ts';
import { setUpChromiumSite as setUpSite } from './chromium-site.ts';

const site = setUpSite();

async function openHydrated(page: Page, path = '/') {
  await page.goto(site.url + path);
  await waitForHydration(page);
}

const inViewport = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  });

describe('the hero button', () => {
  it('scrolls to the live stream', async () => {
    const { page } = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(page);
    expect(await inViewport(page, '#rsvp')).toBe(false);
    await page.locator('.hero a[href="#rsvp"]').click();
    // The section comes to rest right below the language bar at the top.
    await page.waitForFunction(() => {
      const box = document.getElementById('rsvp')!.getBoundingClientRect();
      const bar = document.querySelector('.language-menu')!.getBoundingClientRect();
      return Math.abs(box.top - bar.bottom) < 2;
    });
    expect(await inViewport(page, '#rsvp')).toBe(true);
  });
});

describe('the studio picker', () => {
  it('shows the address and map of each studio chosen', async () => {
    const { page } = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(page);
    const frame = page.locator('.map-panel__map');
    expect(await frame.getAttribute('loading')).toBe('lazy');
    const studios = await page
      .locator('#studio-select option')
      .evaluateAll((options) => options.map((o) => ({ id: (o as HTMLOptionElement).value, name: o.textContent! })));
    expect(studios).toHaveLength(4);
    const seenSources = new Set<string>();
    for (const studio of studios) {
      await page.locator('#studio-select').selectOption(studio.id);
      expect(await frame.getAttribute('title')).toBe(`${studio.name} Location`);
      expect(await page.locator('.map-panel__name').textContent()).toBe(studio.name);
      seenSources.add((await frame.getAttribute('src'))!);
      expect(await frame.getAttribute('loading')).toBe('lazy');
    }
    expect(seenSources.size).toBe(4);
    expect(await page.locator('.map-panel__address').textContent()).toContain('Dübendorf');
    expect(await page.locator('.map-panel').evaluate((el) => el.getBoundingClientRect().height)).toBe(24 * 16);
  });
});

describe('the studio cards', () => {
  const columns = (page: Page) =>
    page
      .locator('.studio-card')
      .evaluateAll((cards) => new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left))).size);

  it('open each studio in a new tab, in two columns on a wide screen and one on a phone', async () => {
    const { page } = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(page);
    const links = await page
      .locator('.studio-card')
      .evaluateAll((cards) =>
        cards.map((c) => ({ target: c.getAttribute('target'), rel: c.getAttribute('rel') ?? '' })),
      );
    expect(links).toHaveLength(4);
    for (const link of links) {
      expect(link.target).toBe('_blank');
      expect(link.rel.split(' ')).toContain('noopener');
    }
    expect(await columns(page)).toBe(2);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await columns(page)).toBe(1);
  });
});

describe('the footer and the legal notice', () => {
  it('lead to /impressum and its privacy section, and back to /', async () => {
    const { page } = await site.visitor({ language: 'de', viewport: { width: 1280, height: 800 } });
    await openHydrated(page);

    await page.locator('.footer a[href="/impressum"]').click();
    await page.waitForURL(site.url + '/impressum');
    expect(await page.locator('.legal h1').textContent()).toBe('Impressum');
    await page.locator('a.legal__back').click();
    await page.waitForURL(site.url + '/');
    // The address changes first; the landing page is rendered as a transition right after.
    await page.locator('.hero__title').waitFor({ state: 'visible' });

    await page.locator('.footer a[href="/impressum#Datenschutzerklärung"]').click();
    await page.waitForURL(/\/impressum#Datenschutzerkl%C3%A4rung$/);
    // As above, the legal notice is rendered just after the address changes, then scrolled to.
    await page.waitForFunction(() => {
      const box = document.getElementById('Datenschutzerklärung')?.getBoundingClientRect();
      return box !== undefined && box.top >= 0 && box.top < window.innerHeight;
    });
    await page.goBack();
    await page.waitForURL(site.url + '/');

    // A visitor arriving on the anchor directly lands on the section too (on a busy machine the
    // browser may scroll to it only after the load event).
    await page.goto(site.url + '/impressum#Datenschutzerklärung');
    await expect.poll(() => inViewport(page, '#privacy-heading'), { timeout: 10_000 }).toBe(true);
  });
});

describe('an unknown path', () => {
  it('shows the 404 page and logs the path with console.error', async () => {
    const watched = await site.visitor({ language: 'de' });
    const response = await watched.page.goto(site.url + '/no/such/page');
    expect(response!.status()).toBe(404);
    await watched.page.waitForFunction(() => document.title.includes('404') || document.querySelector('.not-found'));
    expect(await watched.page.locator('.not-found__message').textContent()).toBe('Hoppla! Seite nicht gefunden');
    await expect
      .poll(() => watched.console.filter((m) => m.type === 'error' && m.text.includes('/no/such/page')).length, {
        timeout: 10_000, // logged once the page has hydrated, which a busy machine delays
      })
      .toBe(1);
    await watched.page.locator('.not-found a[href="/"]').click();
    await watched.page.waitForURL(site.url + '/');
  });
});
