/**
 * The browser suite in each engine, one after the other: `npm run test:browser` runs it in
 * Chromium, Firefox and WebKit and prints the time each took. `--engine firefox,webkit` picks
 * engines; `--runs 5` runs the whole suite five times in a row, stopping at the first red run;
 * `--busy` keeps one core busy with a process of its own all the while (a shared machine's other
 * work); any other argument goes to vitest (a file, `-t <name>`).
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../server/config/paths.ts';
import { browserSuiteArguments, ENGINE_NAMES, type EngineName } from './harness/browser-engines.ts';
import { startBusyCore } from './harness/busy-core.ts';
import { failuresInReportFile } from './harness/suite-failures.ts';
import { runSuites, summaryLines } from './harness/suite-runs.ts';

let parsed: ReturnType<typeof browserSuiteArguments>;
try {
  parsed = browserSuiteArguments(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const { engines: asked, runs, busy, vitest: passedOn } = parsed;
const engines = asked as EngineName[];
const unknown = engines.filter((engine) => !ENGINE_NAMES.includes(engine));
if (unknown.length > 0) {
  console.error(`unknown engine ${unknown.join(', ')}: choose from ${ENGINE_NAMES.join(', ')}`);
  process.exit(2);
}

const busyCore = busy ? startBusyCore() : null;
const started = performance.now();
if (busyCore) console.log(`one core kept busy by process ${busyCore.pid} for the whole run`);

// Each run's JSON report names what failed, for the summary at the end: the last lines a CI log keeps.
const REPORTS = path.join(APP_ROOT, 'test-results/browser/reports');
const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.browser.config.ts'];
const results = runSuites(runs, engines, (engine, run) => {
  console.log(`\nbrowser suite in ${engine}${runs > 1 ? `, run ${run} of ${runs}` : ''}`);
  const report = path.join(REPORTS, `${engine}-run-${run}.json`);
  rmSync(report, { force: true });
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const child = spawnSync(process.execPath, [...vitest, ...reporters, ...passedOn], {
    stdio: 'inherit',
    env: { ...process.env, BROWSER_ENGINE: engine },
  });
  return { passed: child.status === 0, failures: failuresInReportFile(report, APP_ROOT) };
});
await busyCore?.stop();

console.log(`\nbrowser suite per engine:\n${summaryLines(results, runs).join('\n')}`);
const green = results.every((result) => result.passed);
if (runs > 1) {
  const done = new Set(results.map((result) => result.run)).size;
  console.log(green ? `${done} runs in a row green` : `run ${done} of ${runs} red: stopped there`);
}
if (busyCore) {
  const wallSeconds = (performance.now() - started) / 1000;
  console.log(
    `the busy process used ${busyCore.cpuSeconds().toFixed(0)} s of CPU in ${wallSeconds.toFixed(0)} s (a whole core: ${wallSeconds.toFixed(0)} s)`,
  );
}
process.exit(green ? 0 : 1);
