import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '../../server/config/paths.ts';
import type { Visitor } from './driver/visitor.ts';
import { problemsOf } from './journey.ts';
import { setUpSite } from './site.ts';

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
 * In Chromium the page's CPU is slowed down six times (the network is not), as on the phones that
 * lose it; Firefox and WebKit have no such control and run at full speed. A file fetched over
 * loopback still arrives at a time that varies from run to run: without the wait for hydration,
 * that case failed here in anything from one run of five to four of six, with the machine's load.
 * The file served from the page's memory (as from a cache) arrives before the sections have
 * hydrated every time: without the wait, that case failed in every run, slowed down or not.
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
      const page = await site.visitor();
      await page.slowDownCpu(CPU_SLOWDOWN);

      if (languageFile === 'memory') await serveLanguageFileFromMemory(page);
      else if (languageFile > 0) page.line.hold('/locales/', languageFile);

      // The server's nodes, taken once the document is parsed and before the app module has run.
      await page.addInitScript((selectors: typeof SECTIONS) => {
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

      await page.goto('/');
      // What the server sent: without the cookie it sees a first visit.
      const html = await (await fetch(site.serverUrl + '/')).text();
      expect(html).toContain('<html lang="de"');
      expect(html).toContain('role="dialog"');

      await page.waitFor(
        (en: typeof english) =>
          document.documentElement.lang === 'en' &&
          !document.querySelector('[role="dialog"]') &&
          document.querySelector('.hero__tagline')?.textContent === en.hero.tagline &&
          document.querySelector('#studios-heading')?.textContent === en.studios.heading &&
          document.querySelector('footer.footer a')?.textContent === en.footer.impressum,
        english,
        { timeout: 30_000, what: 'the page to turn English' },
      );

      expect(await problemsOf(page)).toEqual([]);

      const sameNodes = await page.evaluate((selectors: typeof SECTIONS) => {
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

      const documents = page.line.requests.filter((request) => request.destination === 'document');
      expect(documents.map((request) => request.path)).toEqual(['/']);
      const languageFiles = page.line.requests.filter((request) => request.path.startsWith('/locales/'));
      expect(languageFiles.map((request) => request.path)).toEqual(['/locales/en/translation.json']);
      expect(await page.cookie('selectedLanguage')).toBe('en');
    },
  );
});

/**
 * Fetches the language file as the document starts, long before the app asks for it, and answers
 * the app's request for it from memory: the app gets it within the task that asks.
 */
async function serveLanguageFileFromMemory(page: Visitor): Promise<void> {
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
