import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCRIPT_PATH } from './driver/line.ts';
import { setUpBrowsers } from './site.ts';
import { waitForHydration, waitForMadePictures } from './journey.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';

const browsers = setUpBrowsers();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
  // The first slide as every visitor gets it once the server has made its pictures.
  await waitForMadePictures(server.url);
}, 70_000);
afterAll(async () => {
  await server?.stop();
});
const visitor = (options: Parameters<typeof browsers.visitor>[1] = {}) =>
  browsers.visitor(server.url, { viewport: PHONE, ...options });

/** A phone's viewport: 390 px wide. */
const PHONE = { width: 390, height: 844 };

/** Whether the browser reports its largest contentful paint: Chromium and Firefox do, WebKit does not. */
const largestPaintReported = () => PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint');

describe(`the first paint in ${browsers.engine}`, () => {
  it.each(['/', '/?lng=en', '/impressum', '/no-such-page'])(
    '%s waits for no render-blocking resource and is styled by its inline stylesheet',
    async (path) => {
      const v = await visitor();
      await v.goto(path);
      await v.waitFor(() => document.readyState === 'complete');
      const found = await v.evaluate(
        (lineScript) => ({
          // Chromium marks each resource that held the first paint back.
          reportsBlocking: 'renderBlockingStatus' in PerformanceResourceTiming.prototype,
          blocking: performance
            .getEntriesByType('resource')
            .filter(
              (entry) =>
                (entry as PerformanceResourceTiming & { renderBlockingStatus?: string }).renderBlockingStatus ===
                'blocking',
            )
            .map((entry) => entry.name),
          // What would hold it back in any browser: stylesheets and scripts to fetch before the
          // first paint (the visitor's line puts a script of the test's own in some engines).
          blockingInDocument: [
            ...document.querySelectorAll(
              'link[rel~="stylesheet"], script[src]:not([async]):not([defer]):not([type="module"])',
            ),
          ]
            .filter((element) => element.getAttribute('src') !== lineScript)
            .map((element) => element.outerHTML),
          sheets: [...document.styleSheets].map((sheet) => ({
            owner: sheet.ownerNode?.nodeName,
            href: sheet.href,
            rules: sheet.cssRules.length,
          })),
          bodyMargin: getComputedStyle(document.body).margin,
        }),
        FIRST_SCRIPT_PATH,
      );
      if (browsers.engine === 'chromium') expect(found.reportsBlocking).toBe(true);
      expect(found.blocking).toEqual([]);
      expect(found.blockingInDocument).toEqual([]);
      expect(found.sheets).toHaveLength(1);
      expect(found.sheets[0]).toMatchObject({ owner: 'STYLE', href: null });
      expect(found.sheets[0]!.rules).toBeGreaterThan(50);
      expect(found.bodyMargin).toBe('0px');
      expect((await v.problems()).filter((problem) => problem.kind === 'csp')).toEqual([]);
    },
  );

  // WebKitGTK scales its display by whole device pixels only: there, the phone at 1× alone.
  it.each(browsers.engine === 'webkit' ? [1] : [1, 1.75])(
    'fetches the first hero slide once, at the size a 390 px phone at %s× needs, from its low-priority preload',
    async (deviceScaleFactor) => {
      const v = await visitor({ deviceScaleFactor });
      await v.goto('/');
      await v.waitFor(() => document.readyState === 'complete');
      const found = await v.evaluate(() => {
        // A phone held upright: the preload of the first slide's crop for portrait screens.
        const preload = document.querySelector<HTMLLinkElement>(
          'link[rel="preload"][as="image"][imagesrcset][media="(orientation: portrait)"]',
        )!;
        return {
          dpr: devicePixelRatio,
          sizes: preload.getAttribute('imagesizes'),
          srcset: preload.getAttribute('imagesrcset')!,
          fetchPriority: preload.getAttribute('fetchpriority'),
          // The box the slide covers: the viewport's width, or 9/16 of its height where that is wider.
          boxWidth: Math.max(innerWidth, innerHeight * (9 / 16)),
          currentSrc: document.querySelector<HTMLImageElement>('.hero__slide')!.currentSrc,
        };
      });
      expect(found.dpr).toBe(deviceScaleFactor);
      expect(found.sizes).toBe('max(100vw, 56.25vh)');
      expect(found.fetchPriority).toBe('low');
      // The smallest picture at least as wide as the box in device pixels, fetched once for the
      // preload and the image.
      const candidates = found.srcset.split(',').map((candidate) => {
        const [address, width] = candidate.trim().split(/\s+/);
        return { path: new URL(address!, 'http://page').pathname, width: parseInt(width!, 10) };
      });
      const needed = found.boxWidth * deviceScaleFactor;
      const expected = candidates.find(({ width }) => width >= needed) ?? candidates.at(-1)!;
      expect(new URL(found.currentSrc).pathname).toBe(expected.path);
      const photo = expected.path.replace(/-[^-/]*$/, '');
      const heroFetches = v.line.requests.map((r) => r.path).filter((p) => p.startsWith(photo));
      expect(heroFetches).toEqual([expected.path]);
    },
  );

  it('asks for the app only once the first paint is reported', async () => {
    const v = await visitor();
    await v.goto('/');
    // The page's boot hydrates the hero: by then the app has been asked for.
    await v.waitFor(() => document.querySelector('.hero__slides > :nth-child(2)'), undefined, { timeout: 20_000 });
    const { supported, paintedAt, askedAt } = await v.evaluate(() => ({
      supported: PerformanceObserver.supportedEntryTypes.includes('paint'),
      paintedAt: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      askedAt: performance.getEntriesByType('resource').find((entry) => /\/assets\/app-[^/]*\.js$/.test(entry.name))
        ?.startTime,
    }));
    expect(supported).toBe(true);
    expect(paintedAt).toBeDefined();
    expect(askedAt).toBeGreaterThanOrEqual(paintedAt!);
  });

  it('where paint timing is missing, asks for the app after the first frame instead', async () => {
    const v = await visitor();
    // A browser without paint entries: it neither lists them nor ever reports one.
    await v.addInitScript(() => {
      const types = PerformanceObserver.supportedEntryTypes.filter((type) => type !== 'paint');
      Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { get: () => types });
      const observe = PerformanceObserver.prototype.observe;
      PerformanceObserver.prototype.observe = function (this: PerformanceObserver, options) {
        if (options?.type !== 'paint') observe.call(this, options);
      };
      requestAnimationFrame(() => {
        (window as unknown as { __firstFrameAt: number }).__firstFrameAt = performance.now();
      });
    });
    await v.goto('/');
    await v.waitFor(() => document.querySelector('.hero__slides > :nth-child(2)'), undefined, { timeout: 20_000 });
    const { firstFrameAt, askedAt } = await v.evaluate(() => ({
      firstFrameAt: (window as unknown as { __firstFrameAt?: number }).__firstFrameAt,
      askedAt: performance.getEntriesByType('resource').find((entry) => /\/assets\/app-[^/]*\.js$/.test(entry.name))
        ?.startTime,
    }));
    expect(firstFrameAt).toBeDefined();
    expect(askedAt).toBeGreaterThanOrEqual(firstFrameAt!);
  });

  // Only Firefox's visitors share a window, so only there does a page load in a tab behind another.
  it.runIf(browsers.engine === 'firefox')(
    'a page loaded in a tab behind another starts its app once the tab is shown',
    async () => {
      const front = await visitor({ language: 'en' });
      const behind = await visitor({ language: 'en' });
      await front.show();
      await front.goto('/');
      // A link opened in a new tab in the background, as a shared chapter's address often is.
      await behind.goto('/#programme-heading');
      await behind.waitFor(() => document.readyState === 'complete');
      expect(await behind.evaluate(() => document.visibilityState)).toBe('hidden');
      // Read later, as such a tab is: shown at once, Firefox still reported its paint.
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      await behind.show();
      await waitForHydration(behind);
      expect(await behind.problems()).toEqual([]);
    },
  );

  describe('when the document arrives in two parts', () => {
    /** How long the stand-in network holds the rest of the document back. */
    const PAUSE_MS = 600;
    let staged: Server | undefined;
    afterEach(() => staged?.close());

    /**
     * The site behind a stand-in for a stalling network: `/` comes up to the hero's title, then
     * the rest after a pause; everything else is passed through as it is.
     */
    async function stagedSite(): Promise<string> {
      staged = createServer((req, res) => {
        get(server.url + req.url, { headers: { ...req.headers, 'accept-encoding': 'identity' } }, (upstream) => {
          if (req.url !== '/') {
            res.writeHead(upstream.statusCode!, upstream.headers);
            upstream.pipe(res);
            return;
          }
          const chunks: Buffer[] = [];
          upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
          upstream.on('end', () => {
            const html = Buffer.concat(chunks).toString('utf8');
            const { 'content-length': _length, ...headers } = upstream.headers;
            res.writeHead(upstream.statusCode!, headers);
            const split = html.indexOf('<h1');
            res.write(html.slice(0, split));
            setTimeout(() => res.end(html.slice(split)), PAUSE_MS);
          });
        });
      });
      await new Promise<void>((resolve) => staged!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(staged.address() as AddressInfo).port}`;
    }

    it('paints nothing before the whole first screen is there: the hero title is in the first frame', async () => {
      const url = await stagedSite();
      // A returning visitor: no overlay, so the hero is the first screen.
      const v = await browsers.visitor(url, { viewport: PHONE, language: 'en' });
      // Every frame the browser renders, whether it could show the page without its title.
      await v.addInitScript(() => {
        const frames: boolean[] = [];
        (window as unknown as { __framesWithoutTitle: boolean[] }).__framesWithoutTitle = frames;
        const look = () => {
          const shown = document.body && getComputedStyle(document.body).visibility !== 'hidden';
          if (shown && document.body.textContent?.trim() && !document.querySelector('.hero__title')) frames.push(true);
          if (!document.querySelector('.hero__title')) requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      });
      await v.goto('/');
      await v.waitFor(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      const found = await v.evaluate(
        (lcp) =>
          new Promise<{ firstPaint?: number; largest: { at: number; element?: string }[] | null; early: number }>(
            (resolve) => {
              const firstPaint = (
                performance.getEntriesByName('first-paint')[0] ??
                performance.getEntriesByName('first-contentful-paint')[0]
              )?.startTime;
              const early = (window as unknown as { __framesWithoutTitle: boolean[] }).__framesWithoutTitle.length;
              if (!lcp) return resolve({ firstPaint, largest: null, early });
              new PerformanceObserver((list) =>
                resolve({
                  firstPaint,
                  largest: (list.getEntries() as (PerformanceEntry & { element: Element | null })[]).map((entry) => ({
                    at: entry.startTime,
                    element: entry.element?.className,
                  })),
                  early,
                }),
              ).observe({ type: 'largest-contentful-paint', buffered: true });
            },
          ),
        await v.evaluate(largestPaintReported),
      );
      expect(found.firstPaint).toBeGreaterThanOrEqual(PAUSE_MS);
      // No frame could show the page without its title: in every engine, the frames themselves.
      expect(found.early).toBe(0);
      // Chromium's largest contentful paint names the title, in the first paint. Firefox weighs
      // text and images otherwise; WebKit has none.
      if (browsers.engine === 'chromium') {
        expect(found.largest).toEqual([{ at: found.firstPaint, element: 'hero__title' }]);
      }
      expect((await v.problems()).filter((problem) => problem.kind === 'csp')).toEqual([]);
    });
  });

  it('on a first visit lays out and paints the overlay alone, and the page once a language is chosen', async () => {
    const v = await visitor();
    await v.goto('/');
    await waitForHydration(v);
    const pageUnderOverlay = () =>
      v.evaluate(() => {
        const under = document.querySelector('.page')!;
        return {
          display: getComputedStyle(under).display,
          height: under.getBoundingClientRect().height,
        };
      });
    // No boxes: nothing of it is styled for layout, laid out or painted.
    expect(await pageUnderOverlay()).toEqual({ display: 'none', height: 0 });
    if (await v.evaluate(largestPaintReported)) {
      const largest = await v.evaluate(
        () =>
          new Promise<string | undefined>((resolve) =>
            new PerformanceObserver((list) =>
              resolve((list.getEntries().at(-1) as PerformanceEntry & { element: Element | null }).element?.className),
            ).observe({ type: 'largest-contentful-paint', buffered: true }),
          ),
      );
      expect(largest).toMatch(/^overlay__/);
    } else expect(browsers.engine).toBe('webkit');
    await v.click('[role="dialog"] a[hreflang="en"]');
    await v.waitFor(() => !document.querySelector('.overlay'));
    const shown = await pageUnderOverlay();
    expect(shown.display).toBe('block');
    expect(shown.height).toBeGreaterThan(844);
  });
});
