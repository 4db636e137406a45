import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { keepScreenshot } from './screenshots.ts';
import { setUpSite } from './site.ts';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
];

const site = setUpSite();

/** The width and height a PNG's header gives. */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe.each(LANGUAGES)(`screenshots of / in %s, in ${site.engine}`, (lng) => {
  it.each(VIEWPORTS)('at $width×$height', async ({ name, width, height }) => {
    const visitor = await site.visitor({ language: lng, viewport: { width, height } });
    await visitor.goto('/');
    await visitor.waitFor(() => document.readyState === 'complete');
    // The first slide decoded, and a frame painted with it since.
    await visitor.evaluate(async () => {
      await document.querySelector<HTMLImageElement>('.hero__slide')!.decode();
      for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    });
    const png = await keepScreenshot(visitor, `home-${lng}-${name}-${width}x${height}-${site.engine}.png`);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    // The visitor's viewport, at one device pixel per CSS pixel.
    expect(pngSize(png)).toEqual({ width, height });
    expect(png.byteLength).toBeGreaterThan(10_000);
  });
});
