import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../scripts/harness/chromium.ts';
import { copyProject } from '../helpers/project-copy.ts';
import { setUpWatchedPages, type WatchedPage } from './chromium-page.ts';
import { currentEngineName } from './driver/engines.ts';
import { escapeRegExp } from '../helpers/reg-exp.ts';

/**
 * `npm run dev` in a copy of the project, seen in real tabs: a refused save laid over the open tab
 * under the page's own policy, the list as the page of a tab loaded meanwhile, and both reloading
 * themselves once the save is fixed. What the event stream carries is tested without a browser in
 * test/scripts/dev.test.ts; this is the dev loop, not the site, so one engine is enough.
 */
describe.runIf(currentEngineName() === 'chromium')('npm run dev, a refused save in Chromium', () => {
  let removeProject = () => {};
  let project: string;
  let dev: ChildProcess;
  let output = '';
  let origin: string;
  let browser: Browser;
  const pages = setUpWatchedPages();

  beforeAll(async () => {
    ({ dir: project, remove: removeProject } = copyProject('dev-overlay-'));
    dev = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      cwd: project,
      env: { PATH: process.env.PATH, PORT: '0', METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (chunk) => (output += String(chunk)));
    dev.stderr!.on('data', (chunk) => (output += String(chunk)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ready = /ready on (http:\/\/\S+) in/.exec(output)?.[1];
      if (ready) {
        origin = ready;
        break;
      }
      if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`npm run dev did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (dev && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev.once('exit', resolve));
      dev.kill('SIGTERM');
      await exited;
    }
    removeProject();
  });

  /** A tab on `/` whose live-reload script has connected. */
  async function tab(): Promise<WatchedPage & { status: number }> {
    const watched = await pages.open(browser, { viewport: { width: 1280, height: 800 } });
    const connected = watched.page.waitForRequest((request) => request.url().endsWith('/__dev/reload'));
    const response = await watched.page.goto(`${origin}/`);
    await connected;
    return { ...watched, status: response!.status() };
  }

  const reloaded = (page: Page) =>
    page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 30_000 });

  it('lays every problem over the open tab, lists them in a tab loaded meanwhile, and reloads both once fixed', async () => {
    const content = path.join(project, 'content/event.json');
    const good = readFileSync(content, 'utf8');
    const lineOf = (text: string) => good.slice(0, good.indexOf(text)).split('\n').length;
    // Each item: its place, then the message (a markup value shown as text).
    const items = [
      [`content/event.json:${lineOf('"date"')}`, 'event.date "2027-02-30" is not a date in the calendar'],
      [`content/event.json:${lineOf('"startTime"')}`, 'event.startTime "6pm <b>" must be a time like 18:00'],
    ].map(([place, message]) =>
      expect.stringMatching(new RegExp(`^${escapeRegExp(place!)}\\s+${escapeRegExp(message!)}\\s`)),
    );
    const open = await tab();
    expect(open.status).toBe(200);

    writeFileSync(
      content,
      good
        .replace('"startTime": "18:00"', '"startTime": "6pm <b>"')
        .replace('"date": "2027-03-18"', '"date": "2027-02-30"'),
    );
    const overlay = open.page.getByRole('alertdialog', { name: 'The save was refused' });
    await overlay.waitFor({ timeout: 30_000 });
    // Over the whole page, styled by its stylesheet, and on top of everything the page shows.
    expect(await overlay.boundingBox()).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    expect(await overlay.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgba(24, 26, 31, 0.97)',
    );
    expect(await open.page.evaluate(() => document.elementFromPoint(640, 400)?.id)).toBe('dev-problems-overlay');
    expect(await overlay.getByRole('listitem').allInnerTexts()).toEqual(items);
    await expect.poll(() => overlay.evaluate((element) => element.matches(':focus'))).toBe(true);

    const loaded = await tab();
    expect(loaded.status).toBe(503);
    const list = loaded.page.getByRole('main', { name: 'The save was refused' });
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual(items);
    // Nothing the policy refused, in either tab; the one console line is the 503 itself.
    expect(await open.cspViolations()).toEqual([]);
    expect(await loaded.cspViolations()).toEqual([]);
    expect([...open.console, ...loaded.console].filter(({ text }) => !/status of 503/.test(text))).toEqual([]);
    expect([...open.uncaught, ...loaded.uncaught]).toEqual([]);

    const bothReloaded = Promise.all([reloaded(open.page), reloaded(loaded.page)]);
    writeFileSync(content, good);
    await bothReloaded;
    for (const { page } of [open, loaded]) {
      await page.waitForLoadState();
      expect(await page.locator('#root').count()).toBe(1);
      expect(await page.getByRole('alertdialog', { name: 'The save was refused' }).count()).toBe(0);
    }
  }, 90_000);
});
