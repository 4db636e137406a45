import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../scripts/harness/chromium.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { pageWitness, watchedPage } from './chromium-page.ts';
import { currentEngineName } from './driver/engines.ts';
import { EVIDENCE_ROOT, keepEvidence } from './evidence.ts';

const ENGINE = 'page-evidence-test';
const execFileAsync = promisify(execFile);

/**
 * The journeys that drive Playwright's Chromium directly (the fake clock's) keep the same evidence
 * when they fail as the driver's visitors, and Playwright's trace beside it: here a real page's.
 */
describe.runIf(currentEngineName() === 'chromium')("a Playwright page's evidence", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(path.join(EVIDENCE_ROOT, ENGINE), { recursive: true, force: true });
  });

  it('has its screenshot, address, documents, console, requests and trace', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.tracing.start({ screenshots: false, snapshots: false });
    const watched = await watchedPage(context);
    const witness = pageWitness(watched);
    await watched.page.goto(`${server.url}/?lng=en`, { waitUntil: 'load' });
    await watched.page.evaluate(() => console.error('the journey saw this'));

    const folder = await keepEvidence(ENGINE, 'a fake clock > counts down', [witness]);
    await context.close();

    const record = JSON.parse(readFileSync(path.join(folder, 'visitor-1.json'), 'utf8'));
    expect(record).toMatchObject({
      engine: ENGINE,
      location: `${server.url}/?lng=en`,
      console: [{ kind: 'error', text: 'the journey saw this' }],
      painting: 'an animation frame within 1 s',
      screenshot: 'visitor-1.png',
      trace: 'visitor-1.trace.zip',
    });
    expect(record.steps[0]).toMatchObject({ step: `at ${server.url}/?lng=en` });
    expect(record.requests).toContainEqual({
      method: 'GET',
      url: `${server.url}/?lng=en`,
      destination: 'document',
      status: 200,
    });
    expect(readFileSync(path.join(folder, 'visitor-1.png')).subarray(1, 4).toString()).toBe('PNG');
    // A zip archive: Playwright's own reader shows it (npx playwright-core show-trace).
    expect(readFileSync(path.join(folder, 'visitor-1.trace.zip')).subarray(0, 2).toString()).toBe('PK');
    expect(existsSync(path.join(folder, 'visitor-2.json'))).toBe(false);

    // Read as docs/contributing.md says, in the evidence's folder: every call the journey made.
    const trace = (...args: string[]) => execFileAsync('npx', ['playwright-core', 'trace', ...args], { cwd: folder });
    await trace('open', 'visitor-1.trace.zip');
    const { stdout: actions } = await trace('actions');
    await trace('close');
    expect(actions).toMatch(/Navigate\s+[\d.]+m?s\s+127\.0\.0\.1:\d+\/\?lng=en/);
    expect(actions).toContain('Evaluate');
  }, 60_000);
});
