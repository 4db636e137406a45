import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodePhoto } from '../../server/photos/encode.ts';
import { PhotoError, PIXEL_LIMITS } from '../../server/photos/photo-encoding.ts';
import { decompressionBomb, PHOTO, pictureOf, smallPhoto } from '../helpers/photos.ts';
import { cameraPhoto, studioScene } from '../../scripts/bench/camera-photos.ts';

const limits = { maxPixels: PIXEL_LIMITS };

describe('encodePhoto', () => {
  it('makes every landscape width and portrait crop of a photo, in WebP and JPEG, that decode as such', async () => {
    const renditions = await encodePhoto(PHOTO, 'slide', limits);
    const made = await Promise.all(renditions.map(async (r) => ({ r, picture: await pictureOf(r.bytes) })));
    expect(made.map(({ r }) => `${r.crop} ${r.width}x${r.height} ${r.format}`)).toEqual([
      'landscape 480x270 webp',
      'landscape 480x270 jpeg',
      'landscape 720x405 webp',
      'landscape 720x405 jpeg',
      'landscape 960x540 webp',
      'landscape 960x540 jpeg',
      'landscape 1280x720 webp',
      'landscape 1280x720 jpeg',
      'landscape 1600x900 webp',
      'landscape 1600x900 jpeg',
      'portrait 360x640 webp',
      'portrait 360x640 jpeg',
      'portrait 506x900 webp',
      'portrait 506x900 jpeg',
    ]);
    for (const { r, picture } of made) {
      expect(picture).toMatchObject({ width: r.width, height: r.height, format: r.format });
      expect(picture.exif, 'no metadata leaves the server').toBeUndefined();
    }
    // A phone's width at 1.75× (720 px) in WebP is a fraction of the photo.
    const phone = renditions.find((r) => r.width === 720 && r.format === 'webp')!;
    expect(phone.bytes.length).toBeLessThan(PHOTO.length / 4);
  });

  it("smooths a dim studio's grain away: every picture at most 100 KiB, and closer to the scene than the photo", async () => {
    // The grainiest of the benchmarks' camera photos, and its scene without the grain.
    const renditions = await encodePhoto(await cameraPhoto('vienna'), 'slide', limits);
    // What a phone may fetch: WebP at any width (held sideways, a landscape one), and where WebP is
    // not supported, a portrait crop in JPEG.
    for (const r of renditions.filter((r) => r.format === 'webp' || r.crop === 'portrait'))
      expect(r.bytes.length, `${r.crop} ${r.width} ${r.format}`).toBeLessThanOrEqual(100 * 1024);

    const scene = await studioScene('vienna');
    const sceneAt1280 = await sharp(scene.data, { raw: scene.info }).resize(1280, 720).raw().toBuffer();
    const picture = renditions.find((r) => r.width === 1280 && r.format === 'webp')!;
    const decoded = await sharp(picture.bytes).removeAlpha().raw().toBuffer();
    let difference = 0;
    for (let i = 0; i < decoded.length; i++) difference += Math.abs(decoded[i]! - sceneAt1280[i]!);
    // Levels of 255 off the scene, on average: the photo at this size is 5.1 off, as the grain is,
    // and its picture without the smoothing 4.7.
    expect(difference / decoded.length).toBeLessThan(2.5);
  });

  it('turns a photo upright by its EXIF orientation before cutting it', async () => {
    // Stored 640 × 360 with "rotate 90° clockwise to view": the photo is 360 wide and 640 high.
    const sideways = await sharp(await smallPhoto())
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const renditions = await encodePhoto(sideways, 'slide', limits);
    expect(renditions.filter((r) => r.crop === 'landscape').map((r) => `${r.width}x${r.height}`)).toContain('360x640');
  });

  it('refuses a decompression bomb from its header, before decoding it', async () => {
    const bomb = await decompressionBomb();
    const started = performance.now();
    const refused = encodePhoto(bomb, 'slide', limits);
    await expect(refused).rejects.toThrow(PhotoError);
    await expect(refused).rejects.toThrow(/pixel limit|more than/);
    // Decoding 100 megapixels would take seconds and 300 MB.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('holds other formats than JPEG to the smaller pixel limit', async () => {
    const png = await sharp(PHOTO).png().toBuffer();
    await expect(encodePhoto(png, 'slide', { maxPixels: { jpeg: 2_000_000, other: 1_000_000 } })).rejects.toThrow(
      /1600 × 900 pixels, more than the 1000000 a png photo may have/,
    );
    await expect(
      encodePhoto(PHOTO, 'slide', { maxPixels: { jpeg: 2_000_000, other: 1_000_000 } }),
    ).resolves.toBeTruthy();
  });

  it('refuses what is not a photo: text, an SVG, a truncated JPEG', async () => {
    await expect(encodePhoto(Buffer.from('<html>not found</html>'), 'slide', limits)).rejects.toThrow(
      /not an image sharp can read/,
    );
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"/>');
    await expect(encodePhoto(svg, 'slide', limits)).rejects.toThrow(/a svg file, not a photo/);
    await expect(encodePhoto(PHOTO.subarray(0, PHOTO.length / 2), 'slide', limits)).rejects.toThrow(
      /cannot be decoded/,
    );
  });

  it('refuses a photo too small for any picture a page shows, such as a 1 × 1 placeholder', async () => {
    const dot = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    await expect(encodePhoto(dot, 'slide', limits)).rejects.toThrow(/1 × 1 pixels, too small for any picture/);
    await expect(encodePhoto(dot, 'logo', limits)).rejects.toThrow(PhotoError);
    // A panorama too low for a portrait crop still has its landscape pictures.
    const strip = await sharp({ create: { width: 640, height: 20, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const renditions = await encodePhoto(strip, 'slide', limits);
    expect(renditions.map((r) => r.crop)).not.toContain('portrait');
    expect(renditions.length).toBeGreaterThan(0);
  });

  it("lays a transparent slide on the hero's blue, and keeps a logo's transparency in WebP and PNG", async () => {
    const transparent = await sharp({
      create: { width: 640, height: 360, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const slide = (await encodePhoto(transparent, 'slide', limits)).find((r) => r.format === 'jpeg')!;
    const { dominant } = await sharp(slide.bytes).stats();
    expect(dominant).toMatchObject({ r: expect.closeTo(10, -1.5), b: expect.closeTo(102, -1.5) });

    const logo = await encodePhoto(transparent, 'logo', limits);
    expect(logo.map((r) => `${r.height} ${r.format}`)).toEqual([
      '72 webp',
      '72 png',
      '144 webp',
      '144 png',
      '216 webp',
      '216 png',
    ]);
    for (const r of logo) expect((await pictureOf(r.bytes)).hasAlpha).toBe(true);
  });
});
