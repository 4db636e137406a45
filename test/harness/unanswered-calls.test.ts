import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VisitorLine } from '../browser/driver/line.ts';
import type { BrowserTab } from '../browser/driver/types.ts';
import { Visitor } from '../browser/driver/visitor.ts';
import { EVIDENCE_ROOT, keepEvidence, visitorWitness } from '../browser/evidence.ts';

const ENGINE = 'unanswered-test-engine';
afterEach(() => rmSync(path.join(EVIDENCE_ROOT, ENGINE), { recursive: true, force: true }));

/** A tab whose page answers the evidence's questions but never a journey's one call, `hangs`. */
function tabThatHangsOn(hangs: (fn: () => unknown) => boolean): BrowserTab {
  return {
    goto: async () => ({ status: 200 }),
    evaluate: (fn: () => unknown) => (hangs(fn) ? new Promise(() => {}) : Promise.resolve('http://127.0.0.1:1/')),
    screenshot: async () => Buffer.from('89504e47', 'hex'),
    problems: async () => [],
  } as unknown as BrowserTab;
}

describe("a visitor's calls to the engine", () => {
  it('are unanswered until they settle, and a hung one is named in the evidence with how long it waited', async () => {
    const hungCall = () => document.querySelector('[data-testid="visitor-time"]');
    const visitor = new Visitor(
      'firefox',
      tabThatHangsOn((fn) => fn === hungCall),
      { requests: [] } as unknown as VisitorLine,
    );
    await visitor.goto('/');
    expect(visitor.unanswered.size).toBe(0);
    void visitor.evaluate(hungCall);
    expect([...visitor.unanswered].map(({ call }) => call)).toEqual([`evaluate ${hungCall.toString()}`]);

    await new Promise((resolve) => setTimeout(resolve, 30));
    const folder = await keepEvidence(ENGINE, 'the visitor times', [visitorWitness(visitor)]);
    const record = JSON.parse(readFileSync(path.join(folder, 'visitor-1.json'), 'utf8'));
    expect(record.unanswered).toHaveLength(1);
    expect(record.unanswered[0].call).toContain('visitor-time');
    expect(record.unanswered[0].waitingMs).toBeGreaterThanOrEqual(30);
    // The evidence's own questions were answered, and are not among them.
    expect(record.location).toBe('http://127.0.0.1:1/');
  });
});
