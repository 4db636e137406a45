import { describe, expect, it } from 'vitest';
import type { HeroSource } from '../../server/hero/hero-source.ts';
import { photoAddress, withPhotos } from '../../server/hero/with-photos.ts';
import type { Photos } from '../../server/photos/photos.ts';
import type { PhotoSet } from '../../server/photos/photo-store.ts';
import type { PageSlide } from '../../shared/page-data.ts';

const SHIPPED: PageSlide = {
  image: '/images/hero/munich-1600.jpg',
  srcset: '/images/hero/munich-800.jpg 800w, /images/hero/munich-2400.jpg 2400w, /images/hero/munich-1600.jpg 1600w',
  studioId: 'munich',
};

const SET: PhotoSet = {
  kind: 'slide',
  photoHash: 'AAAAAAAAAAAAAAAAAAAAAA',
  renditions: [
    { file: 'AAAAAAAAAAAAAAAAAAAAAA-l480.webp', crop: 'landscape', format: 'webp', width: 480, height: 270, size: 1 },
    { file: 'AAAAAAAAAAAAAAAAAAAAAA-l480.jpg', crop: 'landscape', format: 'jpeg', width: 480, height: 270, size: 1 },
    {
      file: 'AAAAAAAAAAAAAAAAAAAAAA-l1920.webp',
      crop: 'landscape',
      format: 'webp',
      width: 1920,
      height: 1080,
      size: 1,
    },
    { file: 'AAAAAAAAAAAAAAAAAAAAAA-l1920.jpg', crop: 'landscape', format: 'jpeg', width: 1920, height: 1080, size: 1 },
  ],
};

/** Photos made on the test's word: `made` holds the sets there are. */
function fakePhotos() {
  const made = new Map<string, PhotoSet>();
  const kept: Record<string, readonly string[]> = {};
  let version = 0;
  const photos: Photos & { made: typeof made; kept: typeof kept; bump(): void } = {
    made,
    kept,
    get version() {
      return version;
    },
    of: (address) => made.get(address) ?? null,
    keep: (group, addresses) => void (kept[group] = addresses),
    settled: async () => {},
    bump: () => void (version += 1),
  };
  return photos;
}

const source = (slides: PageSlide[], logoUrl: string | null): HeroSource => {
  const assets = { heroSlides: slides, logoUrl };
  const served = { outcome: 'hit', ageMs: 0, failing: false, failureStatus: null } as const;
  return {
    get: async () => assets,
    current: () => assets,
    heroSlides: async () => ({ ...served, value: slides.map((slide) => ({ ...slide, studio: 'München' })) }),
    logo: async () => ({ ...served, value: logoUrl }),
  };
};

describe('withPhotos', () => {
  it("makes a slide's photo from the widest picture it names", () => {
    expect(photoAddress(SHIPPED)).toBe('/images/hero/munich-2400.jpg');
    expect(photoAddress({ image: 'https://b.example/a.jpg', studio: 'A' })).toBe('https://b.example/a.jpg');
  });

  it("shows the content file's own pictures until the photo is made, then the made ones, and an SVG logo as it is", async () => {
    const photos = fakePhotos();
    const hero = withPhotos(source([SHIPPED], '/images/logo.svg'), photos, 'keep');
    const before = await hero.get();
    expect(before.heroSlides).toEqual([SHIPPED]);
    expect(before.logoUrl).toBe('/images/logo.svg');
    expect(photos.kept).toEqual({ slides: ['/images/hero/munich-2400.jpg'], logo: [] });
    expect((await hero.get()).heroSlides, 'the same object while nothing changed').toBe(before.heroSlides);

    photos.made.set('/images/hero/munich-2400.jpg', SET);
    photos.bump();
    const after = await hero.get();
    expect(after.heroSlides![0]).toEqual({
      studioId: 'munich',
      image: '/images/photos/AAAAAAAAAAAAAAAAAAAAAA-l480.jpg',
      srcset:
        '/images/photos/AAAAAAAAAAAAAAAAAAAAAA-l480.jpg 480w, /images/photos/AAAAAAAAAAAAAAAAAAAAAA-l1920.jpg 1920w',
      sizes: 'max(100vw, 177.78vh)',
      sources: [
        {
          type: 'image/webp',
          srcset:
            '/images/photos/AAAAAAAAAAAAAAAAAAAAAA-l480.webp 480w, /images/photos/AAAAAAAAAAAAAAAAAAAAAA-l1920.webp 1920w',
          sizes: 'max(100vw, 177.78vh)',
        },
      ],
    });
    expect((await hero.heroSlides()).value[0]).toMatchObject({ studio: 'München', image: after.heroSlides![0]!.image });
  });

  it("hides the backend's photos until made: no slide picture, no logo image, never the backend's address", async () => {
    const photos = fakePhotos();
    const hero = withPhotos(
      source([{ image: 'https://b.example/a.jpg', studio: 'A' }], 'https://b.example/logo.png'),
      photos,
      'hide',
    );
    expect(await hero.get()).toEqual({ heroSlides: [{ image: null, studio: 'A' }], logoUrl: null });
    expect((await hero.heroSlides()).value).toEqual([{ image: null, studio: 'München' }]);
    expect((await hero.logo()).value).toBeNull();
    expect(photos.kept).toEqual({ slides: ['https://b.example/a.jpg'], logo: ['https://b.example/logo.png'] });
  });

  const logoSet = (height: number, width = height): PhotoSet => ({
    kind: 'logo',
    photoHash: 'BBBBBBBBBBBBBBBBBBBBBB',
    renditions: [72, 144, 216]
      .filter((h) => h <= height)
      .concat(height < 216 && ![72, 144].includes(height) ? [height] : [])
      .sort((a, b) => a - b)
      .flatMap((h) =>
        (['webp', 'png'] as const).map((format) => ({
          file: `BBBBBBBBBBBBBBBBBBBBBB-o${h}.${format === 'png' ? 'png' : 'webp'}`,
          crop: 'logo' as const,
          format,
          width: Math.round((width * h) / height),
          height: h,
          size: 1,
        })),
      ),
  });

  it('shows a made logo of 144 px or more at the page’s 72 px, from its 144 px PNG', async () => {
    const photos = fakePhotos();
    const hero = withPhotos(source([], 'https://b.example/logo.png'), photos, 'hide');
    photos.made.set('https://b.example/logo.png', logoSet(400, 800));
    photos.bump();
    expect(await hero.get()).toEqual({ heroSlides: [], logoUrl: '/images/photos/BBBBBBBBBBBBBBBBBBBBBB-o144.png' });
    expect((await hero.logo()).value).toBe('/images/photos/BBBBBBBBBBBBBBBBBBBBBB-o144.png');
  });

  it('shows a smaller made logo at half its pixels, never enlarged: a 64 px logo 32 px high', async () => {
    const photos = fakePhotos();
    const hero = withPhotos(source([], 'https://b.example/logo.png'), photos, 'hide');
    photos.made.set('https://b.example/logo.png', logoSet(64, 96));
    photos.bump();
    expect(await hero.get()).toEqual({
      heroSlides: [],
      logoUrl: '/images/photos/BBBBBBBBBBBBBBBBBBBBBB-o64.png',
      logoSize: { width: 48, height: 32 },
    });
    expect((await hero.logo()).value).toBe('/images/photos/BBBBBBBBBBBBBBBBBBBBBB-o64.png');
  });
});
