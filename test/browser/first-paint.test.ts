import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setUpChromiumSite as setUpSite } from './chromium-site.ts';

const site = setUpSite();

/** A phone: 390 px wide at a device pixel ratio of 1.75. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

describe('the first paint in Chromium', () => {
  it.each(['/', '/?lng=en', '/impressum', '/no-such-page'])(
    '%s waits for no render-blocking resource and is styled by its inline stylesheet',
    async (path) => {
      const { page, cspViolations } = await site.visitor(PHONE);
      await page.goto(site.url + path, { waitUntil: 'load' });
      const found = await page.evaluate(() => ({
        // Chromium marks each resource that held the first paint back.
        reportsBlocking: 'renderBlockingStatus' in PerformanceResourceTiming.prototype,
        blocking: performance
          .getEntriesByType('resource')
          .filter(
            (entry) =>
              (entry as PerformanceResourceTiming & { renderBlockingStatus: string }).renderBlockingStatus ===
              'blocking',
          )
          .map((entry) => entry.name),
        sheets: [...document.styleSheets].map((sheet) => ({
          owner: sheet.ownerNode?.nodeName,
          href: sheet.href,
          rules: sheet.cssRules.length,
        })),
        bodyMargin: getComputedStyle(document.body).margin,
      }));
      expect(found.reportsBlocking).toBe(true);
      expect(found.blocking).toEqual([]);
      expect(found.sheets).toHaveLength(1);
      expect(found.sheets[0]).toMatchObject({ owner: 'STYLE', href: null });
      expect(found.sheets[0]!.rules).toBeGreaterThan(50);
      expect(found.bodyMargin).toBe('0px');
      expect(await cspViolations()).toEqual([]);
    },
  );

  it('fetches the first hero slide once, at the size a 390 px phone at 1.75× needs, from its low-priority preload', async () => {
    const { page } = await site.visitor(PHONE);
    await page.goto(site.url + '/', { waitUntil: 'load' });
    const found = await page.evaluate(() => {
      const preload = document.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"][imagesrcset]')!;
      return {
        sizes: preload.getAttribute('imagesizes'),
        fetchPriority: preload.getAttribute('fetchpriority'),
        currentSrc: document.querySelector<HTMLImageElement>('.hero__slide')!.currentSrc,
        heroFetches: performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((name) => name.startsWith('/images/hero/munich')),
      };
    });
    // 390 × 1.75 = 683 device pixels: the 800 px candidate, fetched once for the preload and the image.
    expect(found.sizes).toBe('100vw');
    expect(found.fetchPriority).toBe('low');
    expect(new URL(found.currentSrc).pathname).toBe('/images/hero/munich-800.jpg');
    expect(found.heroFetches).toEqual(['/images/hero/munich-800.jpg']);
  });

  it('asks for the app only once the first paint is reported', async () => {
    const { page } = await site.visitor(PHONE);
    await page.goto(site.url + '/', { waitUntil: 'load' });
    const timings = () => ({
      paintedAt: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      askedAt: performance.getEntriesByType('resource').find((entry) => /\/assets\/app-[^/]*\.js$/.test(entry.name))
        ?.startTime,
    });
    // The page's boot hydrates the hero: by then the app has been asked for.
    await page.waitForSelector('.hero__slide:nth-child(2)', { state: 'attached' });
    const { paintedAt, askedAt } = await page.evaluate(timings);
    expect(paintedAt).toBeDefined();
    expect(askedAt).toBeGreaterThanOrEqual(paintedAt!);
  });

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
        get(site.url + req.url, { headers: { ...req.headers, 'accept-encoding': 'identity' } }, (upstream) => {
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
      const { page, cspViolations } = await site.visitor(PHONE);
      await page.context().addCookies([{ name: 'selectedLanguage', value: 'en', url }]);
      await page.goto(url + '/', { waitUntil: 'load' });
      const found = await page.evaluate(
        () =>
          new Promise<{ firstPaint?: number; largest: { at: number; element?: string }[] }>((resolve) => {
            new PerformanceObserver((list) =>
              resolve({
                firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime,
                largest: (list.getEntries() as (PerformanceEntry & { element: Element | null })[]).map((entry) => ({
                  at: entry.startTime,
                  element: entry.element?.className,
                })),
              }),
            ).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      expect(found.firstPaint).toBeGreaterThanOrEqual(PAUSE_MS);
      expect(found.largest).toEqual([{ at: found.firstPaint, element: 'hero__title' }]);
      expect(await cspViolations()).toEqual([]);
    });
  });

  it('on a first visit lays out and paints the overlay alone, and the page once a language is chosen', async () => {
    const { page } = await site.visitor(PHONE);
    await page.goto(site.url + '/', { waitUntil: 'load' });
    const pageUnderOverlay = () =>
      page.evaluate(() => {
        const under = document.querySelector('.page')!;
        return {
          display: getComputedStyle(under).display,
          height: under.getBoundingClientRect().height,
        };
      });
    // No boxes: nothing of it is styled for layout, laid out or painted.
    expect(await pageUnderOverlay()).toEqual({ display: 'none', height: 0 });
    const largest = await page.evaluate(
      () =>
        new Promise<string | undefined>((resolve) =>
          new PerformanceObserver((list) =>
            resolve((list.getEntries().at(-1) as PerformanceEntry & { element: Element | null }).element?.className),
          ).observe({ type: 'largest-contentful-paint', buffered: true }),
        ),
    );
    expect(largest).toMatch(/^overlay__/);
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForSelector('.overlay', { state: 'detached' });
    const shown = await pageUnderOverlay();
    expect(shown.display).toBe('block');
    expect(shown.height).toBeGreaterThan(844);
  });
});
