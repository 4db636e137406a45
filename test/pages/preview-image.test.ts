import { describe, expect, it } from 'vitest';
import { previewImage } from '../../server/pages/preview-image.ts';
import type { HeroSlide, PictureSource } from '../../shared/page-data.ts';

const ORIGIN = 'https://event.example.com';
const HASH = 'PX98YXM32i7vFke4JuEHdB';
const at = (name: string) => `/images/photos/${HASH}-${name}`;
const srcset = (names: string[]) => names.map((name) => `${at(name)} ${/\d+/.exec(name)![0]}w`).join(', ');

/** A slide as the server shows the pictures it made of a photo `widths` wide (landscape) and its portrait crop. */
function madeSlide(landscape: number[], aspect: string, portrait: number[]): HeroSlide {
  const sizes = `max(100vw, ${aspect}vh)`;
  const portraitSizes = 'max(100vw, 56.25vh)';
  const media = '(orientation: portrait)';
  const sources: PictureSource[] = [
    { media, type: 'image/webp', srcset: srcset(portrait.map((w) => `p${w}.webp`)), sizes: portraitSizes },
    { media, srcset: srcset(portrait.map((w) => `p${w}.jpg`)), sizes: portraitSizes },
    { type: 'image/webp', srcset: srcset(landscape.map((w) => `l${w}.webp`)), sizes },
  ];
  return {
    studio: 'Studio München',
    image: at(`l${landscape.filter((w) => w <= 1280).at(-1)}.jpg`),
    srcset: srcset(landscape.map((w) => `l${w}.jpg`)),
    sizes,
    sources,
  };
}

const FULL_HD = madeSlide([480, 720, 960, 1280, 1920], '177.78', [360, 540, 720, 1080]);

describe('the picture a link preview shows', () => {
  it("is the 1280-wide JPEG of the first slide's photo, with its type, width and height", () => {
    expect(previewImage({ heroSlides: [FULL_HD], logoUrl: '/images/logo.svg' }, ORIGIN)).toEqual({
      url: `${ORIGIN}${at('l1280.jpg')}`,
      type: 'image/jpeg',
      width: 1280,
      height: 720,
    });
  });

  it('is chosen from the widths the slide offers, whichever picture its image names', () => {
    for (const image of [at('l1920.jpg'), at('l480.webp'), at('p720.jpg')]) {
      expect(previewImage({ heroSlides: [{ ...FULL_HD, image }], logoUrl: null }, ORIGIN)?.url).toBe(
        `${ORIGIN}${at('l1280.jpg')}`,
      );
    }
  });

  it('is the widest JPEG of a photo narrower than 1280, at its own size', () => {
    // 1000 × 563: the photo's own width is made in place of 1280.
    const slide = madeSlide([480, 720, 960, 1000], '177.62', [316]);
    expect(previewImage({ heroSlides: [slide], logoUrl: null }, ORIGIN)).toEqual({
      url: `${ORIGIN}${at('l1000.jpg')}`,
      type: 'image/jpeg',
      width: 1000,
      height: 563,
    });
    // 4:3 and 3:2 photos, wider than 1920.
    const fourThree = madeSlide([480, 720, 960, 1280, 1920], '133.33', [360, 540, 720, 1080]);
    expect(previewImage({ heroSlides: [fourThree], logoUrl: null }, ORIGIN)?.height).toBe(960);
    const threeTwo = madeSlide([480, 720, 960, 1280, 1920], '150', [360, 540, 720, 1080]);
    expect(previewImage({ heroSlides: [threeTwo], logoUrl: null }, ORIGIN)?.height).toBe(853);
  });

  it('is never a portrait crop or a WebP, wherever the slide lists them', () => {
    const slide: HeroSlide = {
      ...madeSlide([480, 720, 960], '177.78', [360, 540, 720, 1080]),
      // The landscape JPEGs in a <source> of their own, and a WebP in the image's srcset.
      srcset: srcset(['l960.webp', 'l1280.webp']),
    };
    slide.sources!.push({ type: 'image/jpeg', srcset: srcset(['l480.jpg', 'l960.jpg']), sizes: slide.sizes! });
    expect(previewImage({ heroSlides: [slide], logoUrl: null }, ORIGIN)).toMatchObject({
      url: `${ORIGIN}${at('l960.jpg')}`,
      width: 960,
      height: 540,
    });
  });

  it('gives no height where the slide does not tell the picture’s shape', () => {
    const { sizes: _sizes, ...slide } = FULL_HD;
    expect(previewImage({ heroSlides: [slide], logoUrl: null }, ORIGIN)).toEqual({
      url: `${ORIGIN}${at('l1280.jpg')}`,
      type: 'image/jpeg',
      width: 1280,
    });
  });

  it("is a slide's image as given until its pictures are made, with the width its srcset gives", () => {
    const slide = {
      studioId: 'munich',
      image: '/images/hero/munich-1600.jpg',
      srcset:
        '/images/hero/munich-800.jpg 800w, /images/hero/munich-1600.jpg 1600w, /images/hero/munich-2400.jpg 2400w',
    };
    expect(previewImage({ heroSlides: [slide], logoUrl: null }, ORIGIN)).toEqual({
      url: `${ORIGIN}/images/hero/munich-1600.jpg`,
      type: 'image/jpeg',
      width: 1600,
    });
  });

  it('is the logo where the first slide has no picture, and nothing without either', () => {
    const hidden = { studio: 'Studio Wien', image: null };
    expect(previewImage({ heroSlides: [hidden, FULL_HD], logoUrl: at('o144.png') }, ORIGIN)).toEqual({
      url: `${ORIGIN}${at('o144.png')}`,
      type: 'image/png',
    });
    expect(previewImage({ heroSlides: null, logoUrl: 'https://cdn.example.net/logo' }, ORIGIN)).toEqual({
      url: 'https://cdn.example.net/logo',
    });
    expect(previewImage({ heroSlides: [hidden], logoUrl: null }, ORIGIN)).toBeNull();
  });
});
