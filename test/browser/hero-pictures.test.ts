import { beforeAll, describe, expect, it } from 'vitest';
import type { Visitor } from './driver/visitor.ts';
import { waitForHydration, waitForMadePictures } from './journey.ts';
import { setUpSite } from './site.ts';

const site = setUpSite();

// The journeys count the server's own pictures, under /images/photos/, apart from every other image.
beforeAll(() => waitForMadePictures(site.serverUrl), 70_000);

/** A phone held upright, 390 px wide. */
const PHONE = { width: 390, height: 844 };

/**
 * Run in the page: the hero pictures it has fetched, one per photo (a photo's pictures share the
 * address up to their last dash: `<hash>-<crop><width>`).
 */
const photosFetched = () => [
  ...new Set(
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith('/images/photos/'))
      .map((path) => path.replace(/-[^-/]*$/, '')),
  ),
];
/** Run in the page: the photo each slide in the hero shows, as photosFetched names it. */
const slidePhotos = () =>
  [...document.querySelectorAll<HTMLImageElement>('img.hero__slide')].map((img) =>
    new URL(img.currentSrc || img.src).pathname.replace(/-[^-/]*$/, ''),
  );

/** Opens the page on a phone, hydrated, with the first slide's picture shown. */
async function openOnPhone(visitor: Visitor) {
  await visitor.goto('/');
  await waitForHydration(visitor);
  await visitor.waitFor(() => document.querySelector<HTMLImageElement>('img.hero__slide')?.complete === true);
}

describe(`the hero's pictures in ${site.engine}`, () => {
  it('the first with the page, the next once it has loaded, the third only when the second shows', async () => {
    const visitor = await site.visitor({ language: 'de', viewport: PHONE });
    await openOnPhone(visitor);
    // Held on the first slide: nothing but the time passing may fetch anything more.
    await visitor.click('.hero__pause');
    await visitor.waitFor(() => document.querySelectorAll('img.hero__slide').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const [first, second] = await visitor.evaluate(slidePhotos);
    expect(await visitor.evaluate(photosFetched)).toEqual([first, second]);

    await visitor.click('.hero__pause');
    await visitor.waitFor(() => document.querySelector('.hero__studio')?.textContent === 'Studio Marbella', undefined, {
      timeout: 10_000,
    });
    await visitor.waitFor(() => document.querySelectorAll('img.hero__slide').length === 3);
    const shown = await visitor.evaluate(slidePhotos);
    await visitor.waitFor(
      (third) => performance.getEntriesByType('resource').some((e) => e.name.includes(third)),
      shown[2]!,
    );
    expect(await visitor.evaluate(photosFetched)).toEqual(shown);
  });

  it('a browser asking to spare data fetches the first only, while the studios rotate', async (context) => {
    const visitor = await site.visitor({ language: 'de', viewport: PHONE });
    if (!(await visitor.askToSaveData())) return context.skip('this engine cannot ask to spare data');
    await openOnPhone(visitor);
    await visitor.waitFor(() => document.querySelector('.hero__studio')?.textContent === 'Studio Marbella', undefined, {
      timeout: 10_000,
    });
    expect(await visitor.count('img.hero__slide')).toBe(1);
    expect(await visitor.evaluate(photosFetched)).toEqual(await visitor.evaluate(slidePhotos));
  });
});
