import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import { OWN_MODULE_CACHE } from '../../vitest.config.ts';

const FIXTURES = 'test/fixtures/test-output';

/** Runs the unit suite's settings on fixture test files in a process of its own, as `npm test` runs them. */
async function runFixtures(file: string): Promise<{ code: number | null; output: string }> {
  // The outer run's VITEST_* variables would make the inner one think it is a worker.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
  const vitest = spawn(
    process.execPath,
    [path.join(APP_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', `${FIXTURES}/vitest.config.ts`, file],
    { cwd: APP_ROOT, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  vitest.stdout.on('data', (chunk) => (output += String(chunk)));
  vitest.stderr.on('data', (chunk) => (output += String(chunk)));
  const code = await new Promise<number | null>((resolve) => vitest.once('exit', resolve));
  return { code, output };
}

describe("the unit suite's output", () => {
  it('is a few lines when every test passes: no passing test’s log, no skipped-frame report', async () => {
    const { code, output } = await runFixtures('passing.fixture.ts');
    expect(code, output).toBe(0);
    expect(output).not.toContain('log of a passing test');
    expect(output).not.toContain('NotSupportedError');
    expect(output).toMatch(/Tests\s+2 passed/);
    expect(output.trim().split('\n').length, output).toBeLessThan(15);
  });

  it("shows a failing test's error and its log, and fails a test whose window reported an error", async () => {
    const { code, output } = await runFixtures('failing.fixture.ts');
    expect(code).toBe(1);
    expect(output).toContain('logs and fails');
    expect(output).toContain('log of a failing test');
    expect(output).toContain('expected 1 to be 2');
    expect(output).toContain('Unexpected console.error (1x): error reported by the test window');
    expect(output).toMatch(/Tests\s+2 failed/);
  });
});

describe("the unit suite's module cache", () => {
  it('is its own for exactly the files that mock a module, which a cache shared with other files may have loaded already', () => {
    const mocking = readdirSync(path.join(APP_ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      // The unit suite's files: the other suites have configs of their own.
      .filter((file) => /\.test\.tsx?$/.test(file) && !/^(browser|edge|db|container)\//.test(file))
      .map((file) => `test/${file}`)
      .filter((file) => /\bvi\.mock\(/.test(readFileSync(path.join(APP_ROOT, file), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect([...OWN_MODULE_CACHE].sort()).toEqual(mocking.sort());
  });
});
