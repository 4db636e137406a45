import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunnerTestCase } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import type { Visitor } from './driver/visitor.ts';
import { EVIDENCE_ROOT } from '../../scripts/harness/suite-parts.ts';

export { EVIDENCE_ROOT };

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

/** What the evidence reads of one open tab: a visitor of the suite's driver, or a Playwright page. */
export interface Witness {
  /** What the journey asked of the tab, in order, with when (ms since it opened); the last is where it stood. */
  readonly steps: readonly { atMs: number; step: string }[];
  /** Every request the tab made, with its status. */
  readonly requests: readonly object[];
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  screenshot(): Promise<Buffer>;
  /** The console's errors and warnings, uncaught exceptions among them. */
  problems(): Promise<readonly object[]>;
  /** The calls to the engine still unanswered, where the driver tracks them: a hung one is named. */
  unanswered?(): readonly { call: string; atMs: number; waitingMs: number }[];
  /** Writes the driver's own record of the tab (a Playwright trace) to `file`, where it keeps one. */
  keepTrace?(file: string): Promise<void>;
}

/** A visitor of the suite's driver, as the evidence reads it (its line's requests without their bodies). */
export function visitorWitness(visitor: Visitor): Witness {
  return {
    steps: visitor.steps,
    requests: visitor.line.requests.map(({ html: _html, ...request }) => request),
    evaluate: (fn) => visitor.evaluate(fn),
    screenshot: () => visitor.screenshot(),
    problems: () => visitor.problems(),
    unanswered: () =>
      [...visitor.unanswered].map(({ call, atMs }) => ({ call, atMs, waitingMs: visitor.now() - atMs })),
  };
}

/**
 * What a developer needs to tell a flake from a regression, kept when a journey fails, for each
 * tab still open: a screenshot of the tab at that moment, and in `visitor-N.json` the engine,
 * the page's address, the steps the journey took until then (the last is where it stood), the
 * console's errors and warnings, every request the tab made with its status, and whether the page
 * still paints (an animation frame within 1 s: a browser that stopped giving the page frames hangs
 * a screenshot, and is no regression of the page), and the calls to the engine still unanswered
 * (a journey hung on one); beside them, the driver's trace where it keeps one
 * (`visitor-N.trace.zip`). Returns the folder. Whatever cannot be had from a tab (a closed one, a
 * hung engine) is noted instead.
 */
export async function keepEvidence(engine: string, journey: string, tabs: readonly Witness[]): Promise<string> {
  const folder = path.join(EVIDENCE_ROOT, engine, slug(journey));
  mkdirSync(folder, { recursive: true });
  const within = <T>(promise: Promise<T>): Promise<T | string> =>
    Promise.race([
      promise.catch((error: Error) => `not available: ${error.message}`),
      new Promise<string>((resolve) => setTimeout(() => resolve('not available: no answer within 5 s'), 5000)),
    ]);
  await Promise.all(
    tabs.map(async (tab, index) => {
      const name = `visitor-${index + 1}`;
      // Before the evidence's own calls join them.
      const unanswered = tab.unanswered?.();
      const painting = await within(tab.evaluate(paintsWithinASecond));
      const screenshot = await within(tab.screenshot());
      if (Buffer.isBuffer(screenshot)) writeFileSync(path.join(folder, `${name}.png`), screenshot);
      const record = {
        engine,
        journey,
        location: await within(tab.evaluate(() => location.href)),
        steps: tab.steps,
        ...(unanswered && { unanswered }),
        console: await within(tab.problems()),
        requests: tab.requests,
        painting,
        screenshot: Buffer.isBuffer(screenshot) ? `${name}.png` : screenshot,
        ...(tab.keepTrace && {
          trace: await within(tab.keepTrace(path.join(folder, `${name}.trace.zip`)).then(() => `${name}.trace.zip`)),
        }),
      };
      writeFileSync(path.join(folder, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
    }),
  );
  return folder;
}

/**
 * For an `afterEach`: when the test failed, keeps its open tabs' evidence and names the folder in
 * the failure's own lines, where a developer reading them looks first.
 */
export async function keepEvidenceOfFailure(
  task: RunnerTestCase,
  engine: string,
  tabs: readonly Witness[],
): Promise<void> {
  if (task.result?.state !== 'fail' || tabs.length === 0) return;
  const journey = [task.suite?.name, task.name].filter(Boolean).join(' > ');
  const folder = await keepEvidence(engine, journey, tabs);
  const line = `\n  evidence in ${engine}: ${path.relative(APP_ROOT, folder)}/`;
  for (const error of task.result.errors ?? []) {
    error.message += line;
    // The stack was written with the error, before this line: vitest's JSON report, which the
    // suite's summary reads, gives the stack. The line goes after the message, ahead of the frames.
    if (error.stack) error.stack = error.stack.replace(/(?=\n\s+at )|$/, line);
  }
}
