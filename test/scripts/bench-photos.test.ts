import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bytesByKind, bytesOfPhoto, kindOf, madePicture, type Transfer } from '../../scripts/bench/bytes-by-kind.ts';
import { backendLogo, cameraPhoto } from '../../scripts/bench/camera-photos.ts';
import { failingAudits, photoVisitFigures, type LighthouseReport } from '../../scripts/bench/lighthouse-figures.ts';
import { pagePictures, photoVisitProblems, waitForPictures } from '../../scripts/bench/page-pictures.ts';

/**
 * The benchmarks' view of a returning visitor with the backend's photos (npm run bench, npm run
 * bench:lighthouse): what they count as hero photos, logo and the rest, and when they call the
 * visit broken.
 */
const SITE = 'http://127.0.0.1:4000';
const BACKEND = 'http://127.0.0.1:5000';
const SLIDE = 'AAAAAAAAAAAAAAAAAAAAAA';
const OTHER_SLIDE = 'BBBBBBBBBBBBBBBBBBBBBB';
const LOGO = 'CCCCCCCCCCCCCCCCCCCCCC';

const transfer = (path: string, resourceType: string, bytes: number, mimeType?: string): Transfer => ({
  url: path.startsWith('http') ? path : `${SITE}${path}`,
  resourceType,
  bytes,
  ...(mimeType ? { mimeType } : {}),
});

const VISIT: Transfer[] = [
  transfer('/', 'Document', 12_000, 'text/html'),
  transfer('/assets/app-X.js', 'Script', 95_000, 'text/javascript'),
  transfer('/assets/styles-X.css', 'Stylesheet', 3_000),
  transfer('/fonts/a.woff2', 'Font', 20_000),
  transfer(`/images/photos/${SLIDE}-p607.webp`, 'Image', 86_000, 'image/webp'),
  transfer(`/images/photos/${OTHER_SLIDE}-l1920.jpg`, 'image', 300_000, 'image/jpeg'),
  transfer(`/images/photos/${LOGO}-o64.png`, 'Image', 2_000, 'image/png'),
  transfer('/images/cards/munich-400.jpg', 'Image', 30_000, 'image/jpeg'),
  transfer('/api/hero-slides', 'Fetch', 1_500, 'application/json'),
  transfer('/api/live', 'xhr', 500),
  transfer('/favicon.svg', 'Other', 400, 'image/svg+xml'),
  transfer('/manifest.webmanifest', 'Manifest', 300),
];

describe('bytes by kind', () => {
  it("tells the server's pictures of a slide from those of the logo, by their names", () => {
    expect(madePicture(`${SITE}/images/photos/${SLIDE}-p607.webp`)).toEqual({ photoHash: SLIDE, of: 'slide' });
    expect(madePicture(`/images/photos/${SLIDE}-l1280.jpg`)).toEqual({ photoHash: SLIDE, of: 'slide' });
    expect(madePicture(`/images/photos/${LOGO}-o144.webp`)).toEqual({ photoHash: LOGO, of: 'logo' });
    expect(madePicture('/images/hero/munich-1600.jpg')).toBeNull();
    expect(madePicture(`/images/photos/${SLIDE}-x10.jpg`)).toBeNull();
  });

  it("sorts Lighthouse's and Playwright's resource types alike", () => {
    expect(VISIT.map(kindOf)).toEqual([
      'document',
      'script',
      'css',
      'font',
      'hero photos',
      'hero photos',
      'logo',
      'other images',
      'json/api',
      'json/api',
      'other images',
      'other',
    ]);
  });

  it('sums every kind, naming those with nothing, and the total', () => {
    expect(bytesByKind(VISIT)).toEqual({
      document: 12_000,
      script: 95_000,
      css: 3_000,
      font: 20_000,
      'hero photos': 386_000,
      logo: 2_000,
      'other images': 30_400,
      'json/api': 2_000,
      other: 300,
      total: 550_700,
    });
    expect(bytesByKind([])).toMatchObject({ total: 0, 'hero photos': 0, logo: 0 });
  });

  it("counts one photo's pictures by its hash", () => {
    expect(bytesOfPhoto(VISIT, SLIDE)).toBe(86_000);
    expect(bytesOfPhoto(VISIT, 'DDDDDDDDDDDDDDDDDDDDDD')).toBe(0);
  });
});

describe('the made pictures a page names', () => {
  it("finds every slide's photo in the slides' order, and the logo's, wherever the page names them", () => {
    const html = [
      `<link rel="preload" imageSrcSet="/images/photos/${SLIDE}-p360.webp 360w, /images/photos/${SLIDE}-p607.webp 607w">`,
      `<img class="logo" src="/images/photos/${LOGO}-o64.png">`,
      `<script id="bootstrap-data" type="application/json">{"heroSlides":[{"image":"/images/photos/${SLIDE}-l1280.jpg"},`,
      `{"image":"/images/photos/${OTHER_SLIDE}-l1280.jpg"}],"logoUrl":"/images/photos/${LOGO}-o64.png"}</script>`,
    ].join('');
    expect(pagePictures(html)).toEqual({ slides: [SLIDE, OTHER_SLIDE], logo: LOGO });
  });

  it('names none while the photos are being made', () => {
    expect(pagePictures('<div class="hero__slides hero__slides--empty"></div>')).toEqual({ slides: [], logo: null });
  });
});

describe('waiting for the made pictures', () => {
  /** A page that names no picture for its first `plainAnswers` answers, then the slide's and the logo's. */
  async function pageServer(plainAnswers: number) {
    let answers = 0;
    const server = createServer((_req, res) => {
      answers++;
      res.end(
        answers > plainAnswers
          ? `<img src="/images/photos/${SLIDE}-p607.webp"><img src="/images/photos/${LOGO}-o64.png">`
          : '<div class="hero__slides--empty"></div>',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
  }

  it('asks again until the page names them', async () => {
    const page = await pageServer(2);
    try {
      await expect(waitForPictures(page.url, { slides: 1, logo: true, timeoutMs: 5000 })).resolves.toEqual({
        slides: [SLIDE],
        logo: LOGO,
      });
    } finally {
      page.close();
    }
  });

  it('fails at its time limit, or at once when the server says it cannot make one, quoting its log', async () => {
    const page = await pageServer(Infinity);
    try {
      await expect(
        waitForPictures(page.url, { slides: 4, logo: true, timeoutMs: 600, photoLog: () => ['{"msg":"photo made"}'] }),
      ).rejects.toThrow(
        /named the made pictures of 0 of 4 slides and no logo after 0.6 s: the server did not make its pictures of every photo in time; it logged:\n {2}\{"msg":"photo made"\}/,
      );
      const started = Date.now();
      await expect(
        waitForPictures(page.url, {
          slides: 4,
          logo: false,
          timeoutMs: 60_000,
          refused: () => ['{"msg":"photo cannot be made; its slide shows the gradient"}'],
        }),
      ).rejects.toThrow(/0 of 4 slides: the server cannot make pictures of every photo; it logged:/);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      page.close();
    }
  });
});

describe('a returning visit with the backend photos', () => {
  const pictures = { slides: [SLIDE, OTHER_SLIDE], logo: LOGO };

  it('passes when the first slide and the logo came from the site, and nothing from the backend', () => {
    expect(photoVisitProblems(VISIT, pictures, BACKEND)).toEqual([]);
  });

  it("fails when the first slide's or the logo's pictures did not come, or the backend was asked", () => {
    const without = VISIT.filter(({ url }) => !url.includes(SLIDE) && !url.includes(LOGO));
    expect(photoVisitProblems(without, pictures, BACKEND)).toEqual([
      "no picture of the first slide's photo was fetched",
      "the logo's picture was not fetched",
    ]);
    const fromBackend = [...VISIT, transfer(`${BACKEND}/storage/v1/object/public/hero/munich.jpg`, 'Image', 630_000)];
    expect(photoVisitProblems(fromBackend, pictures, BACKEND)).toEqual([
      'the browser fetched 1 file(s) from the backend itself: /storage/v1/object/public/hero/munich.jpg',
    ]);
    expect(photoVisitProblems(VISIT, { slides: [], logo: null }, BACKEND)).toEqual([
      'the page named no made picture of any slide',
    ]);
  });

  it("reads Lighthouse's report: bytes, the first slide's, the largest slide picture's, and the audits that lowered a score", () => {
    const report: LighthouseReport = {
      categories: {
        performance: { score: 1 },
        accessibility: { score: 1, auditRefs: [{ id: 'color-contrast', weight: 7 }] },
        'best-practices': {
          score: 0.96,
          auditRefs: [
            { id: 'image-size-responsive', weight: 1 },
            { id: 'errors-in-console', weight: 1 },
            { id: 'inspector-issues', weight: 0 },
          ],
        },
        seo: { score: 1 },
      },
      audits: {
        'network-requests': {
          details: { type: 'table', items: VISIT.map(({ bytes, ...r }) => ({ ...r, transferSize: bytes })) },
        },
        'total-byte-weight': { numericValue: 550_700 },
        'image-size-responsive': {
          score: 0,
          details: { type: 'table', items: [{ url: `${SITE}/images/photos/${LOGO}-o64.png` }] },
        },
        'errors-in-console': { score: 1 },
        'inspector-issues': { score: 0 },
        'color-contrast': { score: 1 },
      },
      environment: { benchmarkIndex: 2000 },
      requestedUrl: `${SITE}/`,
    };
    expect(failingAudits(report, 'best-practices')).toEqual(['image-size-responsive']);
    expect(photoVisitFigures(report, pictures)).toEqual({
      totalBytes: 550_700,
      byKind: bytesByKind(VISIT),
      firstSlideBytes: 86_000,
      largestSlidePictureBytes: 300_000,
      failingAudits: [{ category: 'best-practices', id: 'image-size-responsive', items: [`${LOGO}-o64.png`] }],
    });
  });
});

describe("the backend's photos", () => {
  it("are a camera's 1920 × 1080 JPEGs of about 770 KB, the same bytes every run", async () => {
    const photo = await cameraPhoto('munich');
    expect(await sharp(photo).metadata()).toMatchObject({ width: 1920, height: 1080, format: 'jpeg' });
    expect(photo.length).toBeGreaterThan(740_000);
    expect(photo.length).toBeLessThan(800_000);
    expect((await cameraPhoto('munich')).equals(photo)).toBe(true);
  });

  it('and a 64 × 64 PNG logo', async () => {
    expect(await sharp(await backendLogo()).metadata()).toMatchObject({ width: 64, height: 64, format: 'png' });
  });
});
