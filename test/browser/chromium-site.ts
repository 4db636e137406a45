import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { Language } from '../../shared/languages.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { launchBrowser } from '../../scripts/harness/chromium.ts';
import { watchedPage, type WatchedPage } from './page.ts';

export interface Visitor extends WatchedPage {
  context: BrowserContext;
}

export interface Site {
  readonly url: string;
  /** A new visitor: its own cookies and storage, with the language cookie set when given. */
  visitor(options?: BrowserContextOptions & { language?: Language }): Promise<Visitor>;
}

/**
 * The built server and Chromium through Playwright, for the tests that need what only it offers
 * (its fake clock, the DevTools protocol); the others use site.ts in every engine. One test file; every visitor is closed after its test.
 * `env` is the server's own (another content file or languages folder).
 */
export function setUpChromiumSite(env: NodeJS.ProcessEnv = {}): Site {
  let server: RunningServer;
  let browser: Browser;
  const open: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  return {
    get url() {
      return server.url;
    },
    async visitor({ language, ...options } = {}) {
      const context = await browser.newContext(options);
      open.push(context);
      if (language) await context.addCookies([{ name: 'selectedLanguage', value: language, url: server.url }]);
      return { context, ...(await watchedPage(context)) };
    },
  };
}
