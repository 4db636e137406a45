import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/paths.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { setUpChromiumSite as setUpSite } from './chromium-site.ts';

/** Where the suite leaves its screenshots, as build artefacts. */
export const SCREENSHOT_DIR = path.join(APP_ROOT, 'test-results', 'screenshots');

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

const site = setUpSite();

describe.each(LANGUAGES)('screenshots of / in %s', (lng) => {
  it.each(VIEWPORTS)('at $width×$height', async ({ name, width, height }) => {
    const { page } = await site.visitor({ language: lng, viewport: { width, height } });
    await page.goto(site.url + '/', { waitUntil: 'load' });
    await page
      .locator('.hero__slide')
      .first()
      .evaluate((img: HTMLImageElement) => img.decode());
    const file = path.join(SCREENSHOT_DIR, `home-${lng}-${name}-${width}x${height}.png`);
    const png = await page.screenshot({ path: file });
    expect(png.byteLength).toBeGreaterThan(10_000);
  });
});
