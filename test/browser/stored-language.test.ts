import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '../../server/paths.ts';
import { isOfflineThirdPartyFailure } from './page.ts';
import { setUpChromiumSite as setUpSite } from './chromium-site.ts';

const site = setUpSite();

const english = JSON.parse(readFileSync(path.join(LOCALES_DIR, 'en', 'translation.json'), 'utf8')) as {
  hero: { tagline: string };
  studios: { heading: string };
  footer: { impressum: string };
};

/** Sections the browser hydrates on their own, after the page around them. */
const SECTIONS = { hero: 'header.hero', studios: 'ul.studio-grid', footer: 'footer.footer' };

/**
 * The race needs the stored language's file to arrive before the last section has hydrated.
 * The page's CPU is slowed down six times (the network is not), as on the phones that lose it.
 * A file fetched over loopback still arrives at a time that varies from run to run: without the
 * wait for hydration, that case failed here in anything from one run of five to four of six,
 * with the machine's load. The file served from the page's memory (as from a cache) arrives
 * before the sections have hydrated every time: without the wait, that case failed in every
 * run, slowed down or not.
 */
const CPU_SLOWDOWN = 6;

/** How the language file comes: from the page's memory at once, or from the server this many ms late. */
type LanguageFile = 'memory' | number;

interface Captured {
  sections: Record<string, Element | null>;
  hydratedAlready: boolean;
}

describe('a returning visitor with the language in localStorage and no cookie', () => {
  it.each<[string, LanguageFile]>([
    ['in memory, at once', 'memory'],
    ['from the server, at once', 0],
    ['from the server, 400 ms late', 400],
    ['from the server, 1500 ms late', 1500],
  ])(
    "hydrates the server's German page as sent, then turns it English in place (language file %s)",
    async (_, languageFile) => {
      const { page, context, console: logged, uncaught } = await site.visitor();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

      if (languageFile === 'memory') await serveLanguageFileFromMemory(page);
      else if (languageFile > 0) {
        await page.route('**/locales/**', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, languageFile));
          await route.continue();
        });
      }
      let navigations = 0;
      const languageFiles: string[] = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations++;
        if (request.url().includes('/locales/')) languageFiles.push(new URL(request.url()).pathname);
      });

      // The server's nodes, taken once the document is parsed and before the app module has run.
      await page.addInitScript((selectors) => {
        if (window !== window.top) return; // the video and map frames
        localStorage.setItem('selectedLanguage', 'en');
        document.addEventListener('DOMContentLoaded', () => {
          const root = document.getElementById('root')!;
          const captured: Captured = {
            sections: Object.fromEntries(
              Object.entries(selectors).map(([name, selector]) => [name, document.querySelector(selector)]),
            ),
            hydratedAlready: Object.keys(root).some((key) => key.startsWith('__reactContainer')),
          };
          (window as unknown as { __server: Captured }).__server = captured;
        });
      }, SECTIONS);

      const response = await page.goto(site.url + '/');
      const html = await response!.text();
      expect(html).toContain('<html lang="de"');
      expect(html).toContain('role="dialog"'); // without the cookie the server sees a first visit

      await page.waitForFunction(
        (en) =>
          document.documentElement.lang === 'en' &&
          !document.querySelector('[role="dialog"]') &&
          document.querySelector('.hero__tagline')?.textContent === en.hero.tagline &&
          document.querySelector('#studios-heading')?.textContent === en.studios.heading &&
          document.querySelector('footer.footer a')?.textContent === en.footer.impressum,
        english,
        { timeout: 30_000 },
      );

      expect(logged.filter((entry) => !isOfflineThirdPartyFailure(entry))).toEqual([]);
      expect(uncaught).toEqual([]);

      const sameNodes = await page.evaluate((selectors) => {
        const server = (window as unknown as { __server: Captured }).__server;
        return {
          hydratedAlready: server.hydratedAlready,
          ...Object.fromEntries(
            Object.entries(selectors).map(([name, selector]) => {
              const sent = server.sections[name];
              return [name, sent !== null && sent === document.querySelector(selector) && sent.isConnected];
            }),
          ),
        };
      }, SECTIONS);
      expect(sameNodes).toEqual({ hydratedAlready: false, hero: true, studios: true, footer: true });

      expect(navigations).toBe(1);
      expect(languageFiles).toEqual(['/locales/en/translation.json']);
      const cookie = (await context.cookies(site.url)).find((c) => c.name === 'selectedLanguage');
      expect(cookie?.value).toBe('en');
    },
  );
});

/**
 * Fetches the language file as the document starts, long before the app asks for it, and answers
 * the app's request for it from memory: the app gets it within the task that asks.
 */
async function serveLanguageFileFromMemory(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const fetchFromServer = window.fetch.bind(window);
    const file = fetchFromServer('/locales/en/translation.json').then((response) => response.text());
    window.fetch = (input, init) =>
      String(input) === '/locales/en/translation.json'
        ? file.then((text) => new Response(text, { headers: { 'Content-Type': 'application/json' } }))
        : fetchFromServer(input, init);
  });
}
