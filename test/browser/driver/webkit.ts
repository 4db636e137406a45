import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Builder, By, Key, Origin, type WebDriver } from 'selenium-webdriver';
import { freePort } from '../../../scripts/harness/free-port.ts';
import { pageHasHydrated } from '../hydrated.ts';
import { aimAt, aimWhenStill, type Aim } from './aim.ts';
import { VisitorLine } from './line.ts';
import { problemProbe, recordedProblems } from './probe.ts';
import type { BrowserTab, Engine, Viewport } from './types.ts';

type VisitorSettings = Parameters<Engine['open']>[1];

const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';

export function assertWebKit(): void {
  for (const [file, what] of [
    [WEBKIT_DRIVER, 'WebKitWebDriver'],
    [MINIBROWSER, 'MiniBrowser'],
    [XVFB, 'Xvfb'],
  ] as const) {
    try {
      accessSync(file, constants.X_OK);
    } catch {
      throw new Error(`${what} not found at ${file}: install it with "apt-get install -y webkit2gtk-driver xvfb".`);
    }
  }
}

/**
 * MiniBrowser's window, toolbar and all, is what WebDriver sizes. Its toolbar is drawn tiny so
 * that the window can be as narrow as a phone (GTK keeps it at least as wide as its toolbar).
 * GTK's own setting for animations is what WebKitGTK answers `prefers-reduced-motion` with.
 */
function gtkConfig(root: string, reducedMotion: boolean): string {
  const home = path.join(root, reducedMotion ? 'reduced-motion' : 'motion');
  mkdirSync(path.join(home, 'gtk-3.0'), { recursive: true });
  writeFileSync(
    path.join(home, 'gtk-3.0', 'settings.ini'),
    `[Settings]\ngtk-enable-animations=${reducedMotion ? 'false' : 'true'}\n`,
  );
  writeFileSync(
    path.join(home, 'gtk-3.0', 'gtk.css'),
    'window *:not(.webkit) { font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; -gtk-icon-transform: scale(0.1); }\n',
  );
  return home;
}

/** How long a new session may take, well within a journey's own timeout. */
const SESSION_WAIT_MS = 30_000;

/** How long a navigation may take to load its page. */
const PAGE_LOAD_MS = 20_000;

/** How a plain visit's page starts what it logs about itself. */
const PLAIN_VISIT = 'event-landing: plain visit';

/**
 * Runs first in a plain visit's page: once it has loaded, `hasHydrated` holds and the effects of
 * that have run, it logs "<prefix> settled", after any message of the page's own. Until then it
 * says every 5 s how far the page got, the evidence when it never settles.
 */
function sayWhenHydrated(prefix: string, hasHydrated: () => boolean): void {
  const began = performance.now();
  let said = began;
  const check = () => {
    if (document.readyState === 'complete' && hasHydrated()) {
      setTimeout(() => console.log(`${prefix} settled`), 200);
      return;
    }
    if (performance.now() - said >= 5000) {
      said = performance.now();
      const state = {
        readyState: document.readyState,
        visibility: document.visibilityState,
        firstContentfulPaint: performance.getEntriesByName('first-contentful-paint').length > 0,
        appModule: performance.getEntriesByType('resource').some(({ name }) => name.includes('/assets/app-')),
      };
      console.log(`${prefix} waiting for ${Math.round(said - began)} ms: ${JSON.stringify(state)}`);
    }
    setTimeout(check, 50);
  };
  addEventListener('DOMContentLoaded', check);
}

/** Ends a child process, forcibly if it has not gone within two seconds of being asked. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill();
  const force = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(force);
}

/**
 * A display of its own: MiniBrowser has no headless mode. Without `-noreset`, Xvfb resets itself
 * whenever its last client leaves, as each visitor's browser does, and drops a client that connects
 * meanwhile: on a busy machine the next visitor's browser then "cannot open display".
 */
export async function startDisplay(): Promise<{ display: string; process: ChildProcess }> {
  const child = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let written = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => {
      written += chunk.toString();
      if (written.includes('\n')) resolve(written.trim());
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display`)));
  });
  return { display: `:${number}`, process: child };
}

interface Driver {
  url: string;
  process: ChildProcess;
  /** The last of what the driver and the browser it started wrote, for a failure's message. */
  output(): string;
}

async function startDriver(env: NodeJS.ProcessEnv): Promise<Driver> {
  const port = await freePort();
  const child = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  // Read to the end, so that neither process ever waits on a full pipe; the last 4 KB are kept.
  let written = '';
  const keep = (chunk: Buffer) => (written = (written + chunk.toString()).slice(-4096));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const output = () => written.trim() || '(nothing)';
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100; tries++) {
    if (child.exitCode !== null) break;
    const ready = await fetch(`${url}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { url, process: child, output };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`WebKitWebDriver did not answer on ${url}`);
}

/**
 * WebKit, Safari's engine: WebKitGTK's MiniBrowser under WebKitWebDriver (W3C WebDriver) on a
 * display of its own. Each visitor gets its own driver and browser process, so cookies and
 * storage start empty; the time zone and reduced motion are the process's environment.
 * WebDriver here runs no script before the page's own and reports no console, so the visitor's
 * line puts the problem probe, recording everything, and any init script first in each document.
 */
export async function launchWebKit({
  minibrowser = MINIBROWSER,
  sessionWaitMs = SESSION_WAIT_MS,
  pageLoadMs = PAGE_LOAD_MS,
}: { minibrowser?: string; sessionWaitMs?: number; pageLoadMs?: number } = {}): Promise<Engine> {
  assertWebKit();
  const screen = await startDisplay();
  const configRoot = mkdtempSync(path.join(tmpdir(), 'webkit-gtk-'));
  const open = new Set<BrowserTab>();
  const version = execFileSync(minibrowser, ['--version'], { env: { ...process.env, DISPLAY: screen.display } })
    .toString()
    .trim();

  /** A visitor's own driver and browser, its first page loaded: see `open` below. */
  async function openOnce(
    line: VisitorLine,
    { viewport, deviceScaleFactor = 1, javaScript = true, reducedMotion = false, timeZone, language }: VisitorSettings,
  ): Promise<BrowserTab> {
    // GTK scales a display by whole numbers only (GDK_SCALE), and the suite's display is unscaled.
    if (deviceScaleFactor !== 1)
      throw new Error(`WebKitGTK here draws one device pixel per CSS pixel, not ${deviceScaleFactor}`);
    const driver = await startDriver({
      ...process.env,
      DISPLAY: screen.display,
      XDG_CONFIG_HOME: gtkConfig(configRoot, reducedMotion),
      ...(timeZone ? { TZ: timeZone } : {}),
    });
    let session: WebDriver;
    let opened: NodeJS.Timeout | undefined;
    try {
      const build = new Builder()
        .usingServer(driver.url)
        .withCapabilities({
          browserName: 'MiniBrowser',
          // The tests' stand-in providers answer over https with a certificate of their own.
          acceptInsecureCerts: true,
          'webkitgtk:browserOptions': {
            binary: minibrowser,
            args: ['--automation', ...(javaScript ? [] : ['--enable-javascript=false'])],
          },
        })
        .build();
      // A session that never comes would hold the journey until its own timeout, with no tab to
      // keep evidence of: it fails here instead, with what the driver and the browser said.
      session = await Promise.race([
        build,
        new Promise<never>((_, reject) => {
          opened = setTimeout(
            () =>
              reject(
                new Error(
                  `MiniBrowser did not open a session within ${sessionWaitMs / 1000} s. ` +
                    `WebKitWebDriver and MiniBrowser wrote: ${driver.output()}`,
                ),
              ),
            sessionWaitMs,
          );
        }),
      ]);
    } catch (error) {
      driver.process.kill();
      throw error;
    } finally {
      clearTimeout(opened);
    }
    // A page that never finishes loading fails its step within a journey's time, not WebDriver's five minutes.
    await session.manage().setTimeouts({ pageLoad: pageLoadMs });
    const quit = async () => {
      // A session with a command that never returned may never answer its quit either: the
      // driver is stopped regardless, so that no WebKitWebDriver outlives its journey.
      await Promise.race([session.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5000))]);
      await stop(driver.process);
    };

    const setViewport = async ({ width, height }: Viewport) => {
      // The window's size includes its toolbar: size it, see what the page got, and make up the
      // difference. The page learns of a new size a moment after the window has it, so it is
      // asked until its answer holds still, and the window resized again until the page has
      // the size asked for.
      const window = session.manage().window();
      const inner = () => session.executeScript<[number, number]>('return [innerWidth, innerHeight]');
      const settled = async () => {
        let last = await inner();
        for (let same = 0, tries = 0; same < 3 && tries < 40; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          const now = await inner();
          same = now[0] === last[0] && now[1] === last[1] ? same + 1 : 0;
          last = now;
        }
        return last;
      };
      let rect = { width, height };
      for (let attempt = 0; attempt < 5; attempt++) {
        await window.setRect(rect);
        const [innerWidth, innerHeight] = await settled();
        if (innerWidth === width && innerHeight === height) return;
        rect = {
          width: Math.max(width, rect.width + width - innerWidth),
          height: Math.max(height, rect.height + height - innerHeight),
        };
      }
      throw new Error(`MiniBrowser's page did not take the size ${width}×${height}`);
    };
    const evaluate = <A, R>(fn: (arg: A) => R | Promise<R>, arg: A) =>
      session.executeScript<R>(`return (${fn.toString()}).apply(null, arguments)`, arg);

    try {
      if (language) {
        // WebDriver sets cookies for the page's own site only.
        await session.get(`${line.origin}/favicon.svg`);
        await session.manage().addCookie({ name: 'selectedLanguage', value: language, path: '/' });
      }
      await session.get(`${line.origin}/favicon.svg`);
      await setViewport(viewport ?? { width: 1280, height: 720 });
    } catch (error) {
      await quit();
      throw error;
    }
    line.forgetRequests(); // the visitor's own requests start with its first page

    const tab: BrowserTab = {
      async goto(path) {
        await session.get(line.origin + path);
        return { status: line.latestDocumentStatus() ?? 0 };
      },
      reload: () => session.navigate().refresh(),
      back: () => session.navigate().back(),
      evaluate,
      async click(selector) {
        // Clicked at its centre with the mouse, as the other engines' drivers do, once it holds
        // still in view. WebDriver's own element click first asks WebKit to scroll the element
        // into view if it finds it out of view, a scroll that is smooth by the page's CSS, and
        // then finds it still out of view (ElementNotInteractableError): on a busy machine it
        // did, for the map's button, with the button centred and still.
        // While a frame of another origin has the focus, WebKit finds no element of the page
        // under the pointer: the focus comes back to the page first, as a visitor's click would bring it.
        const element = await session.findElement(By.css(selector));
        await session.executeScript(
          `if (document.activeElement instanceof HTMLIFrameElement) document.activeElement.blur();`,
        );
        // Sections further up take their size once they come into view (content-visibility),
        // which moves what lies below them: aimed at until it holds still (./aim.ts).
        const at = await aimWhenStill(selector, (scroll) =>
          session.executeAsyncScript<Aim>(
            `const [element, scroll, done] = arguments; (${aimAt.toString()})(element, scroll).then(done);`,
            element,
            scroll,
          ),
        );
        await session
          .actions({ async: true })
          .move({ x: at.x, y: at.y, origin: Origin.VIEWPORT })
          .press()
          .release()
          .perform();
      },
      async press(selector, key) {
        const keys = { ArrowDown: Key.ARROW_DOWN, ArrowUp: Key.ARROW_UP, Enter: Key.ENTER, Tab: Key.TAB };
        const element = selector ? await session.findElement(By.css(selector)) : session.switchTo().activeElement();
        await element.sendKeys(keys[key]);
      },
      setViewport,
      cookie: async (name) => (await session.manage().getCookie(name))?.value,
      addInitScript: async (fn, arg) => line.runFirst(fn, arg),
      problems: async () => (javaScript ? evaluate(recordedProblems, undefined) : []),
      slowDownCpu: async () => false,
      askToSaveData: async () => false,
      // Each visitor has a window of its own, always shown.
      show: async () => {},
      screenshot: async () => Buffer.from(await session.takeScreenshot(), 'base64'),
      async close() {
        open.delete(tab);
        await quit();
      },
    };
    open.add(tab);
    return tab;
  }

  const engine: Engine = {
    name: 'webkit',
    version: `MiniBrowser (${version})`,
    async open(line, settings) {
      line.runFirst(problemProbe, true);
      try {
        return await openOnce(line, settings);
      } catch (error) {
        // Now and then WebKit's wait for a page to load never ended, and every command after it
        // waited too (a WebDriver TimeoutError after pageLoadMs): a visitor whose browser does
        // so before its first page gets another browser, once.
        if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
        console.warn(
          `WebKit: a visitor's browser timed out before its first page (${error.message || 'no message'}); opening another`,
        );
        return openOnce(line, settings);
      }
    },
    async consoleOfPlainVisit(url) {
      // Through a line of its own, which puts the settled probe first in the document: the
      // visit lasts until the page says it has hydrated, however busy the machine.
      const address = new URL(url);
      const line = await VisitorLine.open(address.origin);
      line.runFirst(sayWhenHydrated, PLAIN_VISIT, pageHasHydrated);
      const browser = spawn(
        minibrowser,
        ['--enable-write-console-messages-to-stdout=true', line.origin + address.pathname + address.search],
        {
          env: { ...process.env, DISPLAY: screen.display, XDG_CONFIG_HOME: gtkConfig(configRoot, false) },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      // The setting is named for stdout; WebKitGTK 2.50 writes the messages to stderr.
      let written = '';
      browser.stderr.on('data', (chunk: Buffer) => (written += chunk.toString()));
      try {
        for (const deadline = Date.now() + 30_000; !written.includes(`${PLAIN_VISIT} settled`);) {
          if (browser.exitCode !== null || browser.signalCode !== null) {
            throw new Error(
              `MiniBrowser ended (${browser.exitCode ?? browser.signalCode}) before ${url} hydrated. ` +
                `It wrote: ${written.trim().slice(-2000) || '(nothing)'}`,
            );
          }
          if (Date.now() > deadline) {
            const lastWord = written.match(new RegExp(`${PLAIN_VISIT} waiting .*`, 'g'))?.at(-1);
            const requests = line.requests.map(({ path, status }) => `${path} ${status ?? 'unanswered'}`);
            throw new Error(
              `MiniBrowser did not hydrate ${url} within 30 s. The page's last word: ${lastWord ?? 'none'}. ` +
                `Its requests: ${requests.join(', ') || 'none'}.`,
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await stop(browser);
        await line.close();
      }
      // "<source url>:<line>:<column>: CONSOLE ERROR <message>"
      return [...written.matchAll(/^(.*?):\d+:\d+: CONSOLE (ERROR|WARN) (.*)$/gm)].map(([, source, level, text]) => ({
        kind: level === 'ERROR' ? 'error' : 'warning',
        text: text!,
        url: source!,
      }));
    },
    async close() {
      await Promise.all([...open].map((tab) => tab.close()));
      await stop(screen.process);
      rmSync(configRoot, { recursive: true, force: true });
    },
  };
  return engine;
}
