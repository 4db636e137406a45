import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import { imageCommand, imageNodeArgs } from '../../scripts/harness/dockerfile.ts';

/**
 * The pretenuring decisions V8 reports in a fresh process with these flags that keeps a million
 * objects from one site through young collections, the pattern V8 pretenures.
 */
function pretenuringDecisions(flags: string[]): string[] {
  const script = `
    const kept = [];
    for (let i = 0; i < 1e6; i++) kept.push({ index: i, pair: [i, i + 1] });
    console.log('kept', kept.length);
  `;
  const stdout = execFileSync(process.execPath, [...flags, '--trace-pretenuring-statistics', '-e', script], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  expect(stdout).toContain('kept 1000000');
  return stdout.split('\n').filter((line) => /pretenuring: AllocationSite.*=> (maybe )?tenure/.test(line));
}

describe("the image's Node flags", { timeout: 30_000 }, () => {
  it('are needed: without them V8 places objects of a busy allocation site straight in the old generation', () => {
    expect(pretenuringDecisions([]).length).toBeGreaterThan(0);
  });

  it('turn that off', () => {
    expect(imageNodeArgs()).toContain('--no-allocation-site-pretenuring');
    expect(pretenuringDecisions(imageNodeArgs())).toEqual([]);
  });

  it('are the ones npm run serve gives Node too', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(APP_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.serve).toContain(imageCommand().join(' '));
  });
});
