import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';
import type { Visitor } from './driver/visitor.ts';

/** Where a failed journey's evidence goes: one folder per engine and journey. */
export const EVIDENCE_ROOT = path.join(APP_ROOT, 'test-results/browser');

/** A folder name from a journey's name: its words, nothing a file system could mind. */
function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^\w]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 120) || 'journey'
  );
}

/** Run in the page: whether it gets an animation frame within a second. */
function paintsWithinASecond(): Promise<string> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => resolve('an animation frame within 1 s'));
    setTimeout(() => resolve('no animation frame within 1 s: the browser gives the page no frames'), 1000);
  });
}

/**
 * What a developer needs to tell a flake from a regression, kept when a journey fails, for each
 * visitor still open: a screenshot of the tab at that moment, and in `visitor-N.json` the engine,
 * the page's address, the steps the journey took until then (the last is where it stood), the
 * console's errors and warnings, every request the tab made with its status, and whether the page
 * still paints (an animation frame within 1 s: a browser that stopped giving the page frames hangs
 * a screenshot, and is no regression of the page). Returns the folder. Whatever cannot be had from
 * a tab (a closed one, a hung engine) is noted instead.
 */
export async function keepEvidence(engine: string, journey: string, visitors: readonly Visitor[]): Promise<string> {
  const folder = path.join(EVIDENCE_ROOT, engine, slug(journey));
  mkdirSync(folder, { recursive: true });
  const within = <T>(promise: Promise<T>): Promise<T | string> =>
    Promise.race([
      promise.catch((error: Error) => `not available: ${error.message}`),
      new Promise<string>((resolve) => setTimeout(() => resolve('not available: no answer within 5 s'), 5000)),
    ]);
  await Promise.all(
    visitors.map(async (visitor, index) => {
      const name = `visitor-${index + 1}`;
      const painting = await within(visitor.evaluate(paintsWithinASecond));
      const screenshot = await within(visitor.screenshot());
      if (Buffer.isBuffer(screenshot)) writeFileSync(path.join(folder, `${name}.png`), screenshot);
      const record = {
        engine,
        journey,
        location: await within(visitor.evaluate(() => location.href)),
        steps: visitor.steps,
        console: await within(visitor.problems()),
        requests: visitor.line.requests.map(({ html: _html, ...request }) => request),
        painting,
        screenshot: Buffer.isBuffer(screenshot) ? `${name}.png` : screenshot,
      };
      writeFileSync(path.join(folder, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
    }),
  );
  return folder;
}
