/**
 * The browser suite in each engine, one after the other: `npm run test:browser` runs it in
 * Chromium, Firefox and WebKit and prints the time each took. In each engine the journeys that
 * wait for the real clock run in a vitest process of their own beside the others
 * (scripts/harness/suite-parts.ts); their output follows once they are done. `--engine
 * firefox,webkit` picks engines; `--runs 5` runs the whole suite five times in a row, stopping at
 * the first red run; `--busy` keeps one core busy with a process of its own all the while (a
 * shared machine's other work); any other argument goes to vitest (a file, `-t <name>`), which
 * then runs what it names in one process.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../server/config/paths.ts';
import { browserSuiteArguments, ENGINE_NAMES, type EngineName } from './harness/browser-engines.ts';
import { startBusyCore } from './harness/busy-core.ts';
import { failuresInReportFile } from './harness/suite-failures.ts';
import { EVIDENCE_ROOT, SUITE_PREPARED, suiteParts, type SuitePart } from './harness/suite-parts.ts';
import { joinedOutcome, runSuites, summaryLines, type SuiteOutcome } from './harness/suite-runs.ts';
import { buildProduction } from './harness/build.ts';

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

// Each part's JSON report names what failed, for the summary at the end: the last lines a CI log keeps.
const REPORTS = path.join(APP_ROOT, 'test-results/browser/reports');
const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.browser.config.ts'];
const parts = suiteParts(passedOn);
// Parts side by side share one build and one clearing of the engine's evidence, done here, which
// their global setup then skips (test/browser/global-setup.ts); a part alone checks its engine
// first and then does both itself, so a missing browser stops it before any build.
const prepared = parts.length > 1;
if (prepared) buildProduction();

/** One part of an engine's suite in a vitest process; all but the last keep their output until they end. */
function runPart(engine: EngineName, run: number, part: SuitePart, index: number): Promise<SuiteOutcome> {
  const report = path.join(REPORTS, `${engine}-run-${run}${parts.length === 1 ? '' : `-part-${index + 1}`}.json`);
  rmSync(report, { force: true });
  const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const shownAtOnce = index === parts.length - 1;
  const child = spawn(process.execPath, [...vitest, ...reporters, ...part.vitest], {
    stdio: shownAtOnce ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BROWSER_ENGINE: engine, ...(prepared ? { [SUITE_PREPARED]: 'yes' } : {}) },
  });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      if (!shownAtOnce) {
        console.log(`\n${part.name} in ${engine}, run beside the others:`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ passed: code === 0, failures: failuresInReportFile(report, APP_ROOT) });
    });
  });
}

const results = await runSuites(runs, engines, async (engine, run) => {
  console.log(`\nbrowser suite in ${engine}${runs > 1 ? `, run ${run} of ${runs}` : ''}`);
  // What is there belongs to this run.
  if (prepared) rmSync(path.join(EVIDENCE_ROOT, engine), { recursive: true, force: true });
  const outcomes = await Promise.all(parts.map((part, index) => runPart(engine, run, part, index)));
  return joinedOutcome(parts.map((part, index) => ({ name: part.name, outcome: outcomes[index]! })));
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
