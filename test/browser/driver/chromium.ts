import type { ConsoleMessage } from 'playwright-core';
import { launchBrowser } from '../../../scripts/harness/chromium.ts';
import { problemProbe, recordedProblems } from './probe.ts';
import type { BrowserTab, Engine, Problem } from './types.ts';

/** Chromium through Playwright, in its headless shell. */
export async function launchChromium(): Promise<Engine> {
  const browser = await launchBrowser();
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()} (headless shell)`,
    async open(
      line,
      { viewport, deviceScaleFactor = 1, javaScript = true, reducedMotion = false, timeZone, language },
    ) {
      const origin = line.origin;
      const context = await browser.newContext({
        viewport: viewport ?? { width: 1280, height: 720 },
        deviceScaleFactor,
        javaScriptEnabled: javaScript,
        reducedMotion: reducedMotion ? 'reduce' : 'no-preference',
        // The tests' stand-in providers answer over https with a certificate of their own.
        ignoreHTTPSErrors: true,
        ...(timeZone ? { timezoneId: timeZone } : {}),
      });
      if (language) await context.addCookies([{ name: 'selectedLanguage', value: language, url: origin }]);
      const page = await context.newPage();
      await page.addInitScript(problemProbe, false);
      const logged: Problem[] = [];
      page.on('console', (message: ConsoleMessage) => {
        const kind = message.type();
        if (kind === 'error' || kind === 'warning')
          logged.push({ kind, text: message.text(), url: message.location().url });
      });
      page.on('pageerror', (error) =>
        logged.push({ kind: 'uncaught', text: `${error.name}: ${error.message}`, url: '' }),
      );

      const tab: BrowserTab = {
        async goto(path) {
          const response = await page.goto(origin + path);
          return { status: response?.status() ?? 0 };
        },
        reload: async () => void (await page.reload()),
        back: async () => void (await page.goBack()),
        evaluate: (fn, arg) => page.evaluate(fn as (arg: unknown) => never, arg),
        click: (selector) => page.locator(selector).first().click(),
        press: (selector, key) => (selector ? page.locator(selector).first().press(key) : page.keyboard.press(key)),
        setViewport: (size) => page.setViewportSize(size),
        cookie: async (name) => (await context.cookies(origin)).find((cookie) => cookie.name === name)?.value,
        addInitScript: async (fn, arg) => void (await page.addInitScript(fn as (arg: unknown) => void, arg)),
        problems: async () => [...logged, ...(javaScript ? await page.evaluate(recordedProblems) : [])],
        screenshot: () => page.screenshot(),
        async slowDownCpu(rate) {
          const devtools = await context.newCDPSession(page);
          await devtools.send('Emulation.setCPUThrottlingRate', { rate });
          return true;
        },
        async askToSaveData() {
          const devtools = await context.newCDPSession(page);
          await devtools.send('Emulation.setDataSaverOverride', { dataSaverEnabled: true });
          return true;
        },
        show: () => page.bringToFront(),
        close: () => context.close(),
      };
      return tab;
    },
    close: () => browser.close(),
  };
}
