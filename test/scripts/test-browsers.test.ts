import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { browserSuiteArguments } from '../../scripts/harness/browser-engines.ts';
import { startBusyCore } from '../../scripts/harness/busy-core.ts';
import { APP_ROOT } from '../../server/config/paths.ts';
import { failuresInReportFile } from '../../scripts/harness/suite-failures.ts';
import { joinedOutcome, runSuites, summaryLines } from '../../scripts/harness/suite-runs.ts';
import { OTHER_JOURNEYS_AT_ONCE, suiteParts, WAITING_JOURNEYS } from '../../scripts/harness/suite-parts.ts';

const run = promisify(execFile);

describe('npm run test:browser (scripts/test-browsers.ts)', () => {
  it('refuses an engine it does not drive, with one line naming those it does, before running anything', async () => {
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/test-browsers.ts', '--engine', 'opera'], {
      cwd: APP_ROOT,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'unknown engine opera: choose from chromium, firefox, webkit\n',
    });
  });

  it("stops at once without Chromium's headless shell, with one line saying how to install it", async () => {
    const missing = '/nonexistent/chromium-headless-shell';
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/test-browsers.ts', '--engine', 'chromium', 'test/browser/error-page.test.ts'],
      { cwd: APP_ROOT, env: { ...process.env, CHROMIUM_HEADLESS_PATH: missing } },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect(`${failed.stdout}${failed.stderr}`).toContain(
      `chromium-headless-shell not found at ${missing}: install it with "apt-get install -y chromium-headless-shell" or set CHROMIUM_HEADLESS_PATH.`,
    );
  });

  it('passes every argument but --engine on to vitest as given, a test name after -t included', () => {
    expect(browserSuiteArguments(['--engine', 'firefox,webkit', 'test/browser/embeds.test.ts', '-t', 'a map'])).toEqual(
      {
        engines: ['firefox', 'webkit'],
        runs: 1,
        busy: false,
        vitest: ['test/browser/embeds.test.ts', '-t', 'a map'],
      },
    );
    expect(browserSuiteArguments(['-t', 'the footer', '--engine=chromium'])).toEqual({
      engines: ['chromium'],
      runs: 1,
      busy: false,
      vitest: ['-t', 'the footer'],
    });
    expect(browserSuiteArguments(['--testNamePattern=overlay'])).toEqual({
      engines: ['chromium', 'firefox', 'webkit'],
      runs: 1,
      busy: false,
      vitest: ['--testNamePattern=overlay'],
    });
  });

  it('takes --runs and --busy for itself', () => {
    expect(browserSuiteArguments(['--runs', '5', '--busy', 'test/browser/carousel.test.ts'])).toMatchObject({
      runs: 5,
      busy: true,
      vitest: ['test/browser/carousel.test.ts'],
    });
    expect(browserSuiteArguments(['--runs=2'])).toMatchObject({ runs: 2, busy: false, vitest: [] });
  });

  it.each(['0', 'five', '2.5', ''])('refuses --runs %j with one line, before running anything', async (runs) => {
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/test-browsers.ts', '--runs', runs], {
      cwd: APP_ROOT,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `--runs takes a whole number of runs, 1 or more, not ${JSON.stringify(runs)}\n`,
    });
  });
});

describe('the busy core of --busy (scripts/harness/busy-core.ts)', () => {
  it('keeps a core busy until stopped, then is gone', async () => {
    const busy = startBusyCore();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      // A whole core for 1.5 s, less what a loaded machine takes from it: a fifth of a core with
      // six unit files at once on two cores. A process that slept would have next to none.
      expect(busy.cpuSeconds()).toBeGreaterThan(0.15);
    } finally {
      await busy.stop();
    }
    expect(() => process.kill(busy.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(busy.cpuSeconds()).toBeGreaterThan(0.15);
  });
});

describe('the runs of the browser suite', () => {
  /** A suite that passes except in the engine and run named red, taking a second of the fake clock each. */
  const suite = async (red: { engine: string; run: number } | null) => {
    let now = 0;
    const ran: string[] = [];
    const results = await runSuites(
      5,
      ['chromium', 'firefox', 'webkit'],
      async (engine, run) => {
        ran.push(`${run} ${engine}`);
        now += 1000;
        return { passed: !(red && red.engine === engine && red.run === run), failures: [] };
      },
      () => now,
    );
    return { results, ran };
  };

  it('runs every engine in every run when all are green, timing each', async () => {
    const { results, ran } = await suite(null);
    expect(ran).toHaveLength(15);
    expect(results.every((result) => result.passed && result.seconds === 1)).toBe(true);
  });

  it('stops after the first red run, whose other engines still run', async () => {
    const { results, ran } = await suite({ engine: 'firefox', run: 2 });
    expect(ran).toEqual(['1 chromium', '1 firefox', '1 webkit', '2 chromium', '2 firefox', '2 webkit']);
    expect(results.filter((result) => !result.passed)).toEqual([
      { run: 2, engine: 'firefox', seconds: 1, passed: false, failures: [] },
    ]);
  });
});

describe("the parts of an engine's suite, run side by side", () => {
  const browserSuite = readdirSync(path.join(APP_ROOT, 'test/browser'))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/browser/${name}`);

  it('are the journeys waiting on the real clock beside the others, each journey in one of them', () => {
    const [waiting, others] = suiteParts([]);
    expect(waiting!.vitest).toEqual([...WAITING_JOURNEYS]);
    for (const file of WAITING_JOURNEYS) expect(browserSuite).toContain(file);
    // The others: the whole suite but those, a few files at a time.
    expect(others!.vitest).toEqual([
      ...WAITING_JOURNEYS.flatMap((file) => ['--exclude', file]),
      '--fileParallelism',
      `--maxWorkers=${OTHER_JOURNEYS_AT_ONCE}`,
    ]);
  });

  it('are the suite as asked, in one process, when a file or a name is given', () => {
    expect(suiteParts(['test/browser/embeds.test.ts', '-t', 'a map'])).toEqual([
      { name: 'the suite', vitest: ['test/browser/embeds.test.ts', '-t', 'a map'] },
    ]);
  });

  it('make one outcome: red if either is, with the failures of both, and a red part without a report named', () => {
    const failure = { journey: 'test/browser/carousel.test.ts > pauses', reason: 'Error: still moving' };
    const green = { passed: true, failures: [] };
    expect(
      joinedOutcome([
        { name: 'a', outcome: green },
        { name: 'b', outcome: green },
      ]),
    ).toEqual(green);
    expect(
      joinedOutcome([
        { name: 'the journeys on the clock', outcome: { passed: false, failures: null } },
        { name: 'the other journeys', outcome: { passed: false, failures: [failure] } },
      ]),
    ).toEqual({
      passed: false,
      failures: [
        { journey: 'the journeys on the clock', reason: 'no report names what failed: see the output above' },
        failure,
      ],
    });
  });
});

describe('the summary at the end of the browser suite', () => {
  it('names each failed journey under its engine, why it failed, the line it failed at and where its evidence is', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'suite-report-'));
    try {
      writeFileSync(
        path.join(folder, 'journey.test.ts'),
        `import { describe, it } from 'vitest';
describe('the footer', () => {
  it('leads to the legal notice', () => {
    throw new Error('expected /impressum, saw /\\n  evidence in firefox: test-results/browser/firefox/the-footer/');
  });
  it('shows the year', () => {});
});
`,
      );
      writeFileSync(
        path.join(folder, 'setup.test.ts'),
        `import { beforeAll, it } from 'vitest';
beforeAll(() => { throw new Error('the server did not start'); });
it('never runs', () => {});
`,
      );
      const report = path.join(folder, 'report.json');
      await run(
        process.execPath,
        ['node_modules/vitest/vitest.mjs', 'run', '--root', folder, '--reporter=json', `--outputFile.json=${report}`],
        { cwd: APP_ROOT },
      ).catch(() => undefined);
      const failures = failuresInReportFile(report, folder);
      const result = { run: 1, engine: 'firefox', seconds: 612, passed: false, failures };
      expect(summaryLines([{ ...result, engine: 'chromium', passed: true, failures: [] }, result], 1)).toEqual([
        '  chromium passed in 612 s',
        '  firefox  FAILED in 612 s',
        '    ✗ journey.test.ts > the footer > leads to the legal notice',
        '      Error: expected /impressum, saw /',
        '      at journey.test.ts:4',
        '      evidence: test-results/browser/firefox/the-footer/',
        '    ✗ setup.test.ts',
        '      the server did not start',
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('sends a reader to the output above when no report says what failed', () => {
    expect(failuresInReportFile('/nonexistent/report.json', APP_ROOT)).toBeNull();
    expect(summaryLines([{ run: 2, engine: 'webkit', seconds: 30, passed: false, failures: null }], 5)).toEqual([
      '  run 2  webkit   FAILED in 30 s',
      '    no report names a failed journey: see the output above',
    ]);
  });
});
