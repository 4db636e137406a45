import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi, type RunnerTestCase } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import {
  EVIDENCE_ROOT,
  keepEvidence,
  keepEvidenceOfFailure,
  visitorWitness,
  type Witness,
} from '../browser/evidence.ts';
import type { Visitor } from '../browser/driver/visitor.ts';

/**
 * A visitor as the evidence reads it: its steps, line and tab. The frame probe runs as it would in
 * the page, with `paints` telling whether the page's requestAnimationFrame calls back.
 */
function fakeVisitor(tab: { screenshot(): Promise<Buffer>; location(): Promise<string>; paints: boolean }): Witness {
  return visitorWitness({
    steps: [
      { atMs: 0, step: 'goto /impressum' },
      { atMs: 412, step: 'click a.legal__back' },
    ],
    unanswered: new Set(),
    now: () => 0,
    line: { requests: [{ method: 'GET', path: '/impressum', destination: 'document', status: 200, html: '<html>' }] },
    screenshot: tab.screenshot,
    evaluate: async (fn: () => unknown) => {
      if (!fn.toString().includes('requestAnimationFrame')) return tab.location();
      vi.stubGlobal('requestAnimationFrame', (callback: (time: number) => void) => {
        if (tab.paints) callback(0);
        return 1;
      });
      return fn();
    },
    problems: async () => [{ kind: 'error', text: 'Uncaught TypeError: x is undefined', url: '/assets/app.js' }],
  } as unknown as Visitor);
}

const ENGINE = 'test-engine';
afterEach(() => {
  rmSync(path.join(EVIDENCE_ROOT, ENGINE), { recursive: true, force: true });
  vi.unstubAllGlobals();
});

describe("a failed journey's evidence", () => {
  it("keeps each visitor's screenshot, address, steps, console and requests in a folder named for the journey", async () => {
    const png = Buffer.from('89504e47', 'hex');
    const folder = await keepEvidence(ENGINE, 'the footer > leads to /impressum, and back', [
      fakeVisitor({
        screenshot: async () => png,
        location: async () => 'http://127.0.0.1:1/',
        paints: true,
      }),
    ]);
    expect(path.relative(EVIDENCE_ROOT, folder)).toBe(`${ENGINE}/the-footer-leads-to-impressum-and-back`);
    expect(readFileSync(path.join(folder, 'visitor-1.png')).equals(png)).toBe(true);
    const record = JSON.parse(readFileSync(path.join(folder, 'visitor-1.json'), 'utf8'));
    expect(record).toMatchObject({
      engine: ENGINE,
      journey: 'the footer > leads to /impressum, and back',
      location: 'http://127.0.0.1:1/',
      steps: [{ step: 'goto /impressum' }, { atMs: 412, step: 'click a.legal__back' }],
      console: [{ kind: 'error', text: 'Uncaught TypeError: x is undefined' }],
      requests: [{ path: '/impressum', status: 200 }],
      painting: 'an animation frame within 1 s',
      screenshot: 'visitor-1.png',
    });
    expect(record.requests[0].html).toBeUndefined();
  });

  it('notes what a tab could not give, and keeps the rest, when the tab hangs or is gone', async () => {
    const folder = await keepEvidence(ENGINE, 'a hung tab', [
      fakeVisitor({
        paints: false,
        screenshot: () => new Promise<Buffer>(() => {}),
        location: async () => {
          throw new Error('the tab is closed');
        },
      }),
    ]);
    expect(existsSync(path.join(folder, 'visitor-1.png'))).toBe(false);
    const record = JSON.parse(readFileSync(path.join(folder, 'visitor-1.json'), 'utf8'));
    expect(record.screenshot).toBe('not available: no answer within 5 s');
    expect(record.painting).toBe('no animation frame within 1 s: the browser gives the page no frames');
    expect(record.location).toBe('not available: the tab is closed');
    expect(record.steps).toHaveLength(2);
  }, 10_000);

  it("keeps the driver's trace beside the record, where the tab has one", async () => {
    const traced: Witness = {
      ...fakeVisitor({
        screenshot: async () => Buffer.from('89504e47', 'hex'),
        location: async () => 'x',
        paints: true,
      }),
      keepTrace: async (file) => writeFileSync(file, 'PK'),
    };
    const folder = await keepEvidence(ENGINE, 'a traced tab', [traced]);
    expect(readFileSync(path.join(folder, 'visitor-1.trace.zip'), 'utf8')).toBe('PK');
    expect(JSON.parse(readFileSync(path.join(folder, 'visitor-1.json'), 'utf8')).trace).toBe('visitor-1.trace.zip');
  });

  it("names the folder in a failed test's own lines, and keeps nothing for a passed one", async () => {
    const tab = fakeVisitor({
      screenshot: async () => Buffer.from('89504e47', 'hex'),
      location: async () => 'x',
      paints: true,
    });
    const task = (state: 'pass' | 'fail') =>
      ({
        name: `counts down (${state})`,
        suite: { name: 'a fake clock' },
        result: {
          state,
          errors: [
            { message: 'expected "live"', stack: 'AssertionError: expected "live"\n    at journey.test.ts:12:5' },
          ],
        },
      }) as unknown as RunnerTestCase;
    const failed = task('fail');
    await keepEvidenceOfFailure(failed, ENGINE, [tab]);
    const folder = path.join(EVIDENCE_ROOT, ENGINE, 'a-fake-clock-counts-down-fail');
    expect(existsSync(path.join(folder, 'visitor-1.json'))).toBe(true);
    expect(failed.result!.errors![0]!.message).toBe(
      `expected "live"\n  evidence in ${ENGINE}: ${path.relative(APP_ROOT, folder)}/`,
    );
    // The stack too, which vitest's JSON report gives: the message, the folder, then the frames.
    expect(failed.result!.errors![0]!.stack).toBe(
      `AssertionError: expected "live"\n  evidence in ${ENGINE}: ${path.relative(APP_ROOT, folder)}/\n    at journey.test.ts:12:5`,
    );
    await keepEvidenceOfFailure(task('pass'), ENGINE, [tab]);
    expect(existsSync(path.join(EVIDENCE_ROOT, ENGINE, 'a-fake-clock-counts-down-pass'))).toBe(false);
  });
});
