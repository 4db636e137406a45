import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';

const TUNING = path.join(APP_ROOT, 'server/ops/gc-tuning.ts');

/**
 * The pretenuring decisions V8 reports in a fresh process that keeps a million objects from one
 * site through young collections, the pattern V8 pretenures, after the server's tuning or without it.
 */
function pretenuringDecisions(tuned: boolean): string[] {
  const script = `
    ${tuned ? `const { tuneGarbageCollector } = await import(${JSON.stringify(TUNING)}); tuneGarbageCollector();` : ''}
    const kept = [];
    for (let i = 0; i < 1e6; i++) kept.push({ index: i, pair: [i, i + 1] });
    console.log('kept', kept.length);
  `;
  const stdout = execFileSync(
    process.execPath,
    // Node strips the module's types itself: a loader such as tsx would run a heap of its own on another thread.
    ['--trace-pretenuring-statistics', '--input-type=module', '-e', script],
    { cwd: APP_ROOT, encoding: 'utf8', env: { PATH: process.env.PATH } },
  );
  expect(stdout).toContain('kept 1000000');
  return stdout.split('\n').filter((line) => /pretenuring: AllocationSite.*=> (maybe )?tenure/.test(line));
}

describe('the garbage collector tuning', { timeout: 30_000 }, () => {
  it('is needed: without it V8 places objects of a busy allocation site straight in the old generation', () => {
    expect(pretenuringDecisions(false).length).toBeGreaterThan(0);
  });

  it('turns that off in the process that calls it', () => {
    expect(pretenuringDecisions(true)).toEqual([]);
  });
});
