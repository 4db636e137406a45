/**
 * The browser suite in each engine, one after the other: `npm run test:browser` runs it in
 * Chromium, Firefox and WebKit and prints the time each took. `--engine firefox,webkit` picks
 * engines; any other argument goes to vitest (a file, `-t <name>`).
 */
import { spawnSync } from 'node:child_process';
import { browserSuiteArguments, ENGINE_NAMES, type EngineName } from './harness/browser-engines.ts';

const { engines: asked, vitest: passedOn } = browserSuiteArguments(process.argv.slice(2));
const engines = asked as EngineName[];
const unknown = engines.filter((engine) => !ENGINE_NAMES.includes(engine));
if (unknown.length > 0) {
  console.error(`unknown engine ${unknown.join(', ')}: choose from ${ENGINE_NAMES.join(', ')}`);
  process.exit(2);
}

const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.browser.config.ts', ...passedOn];
const results: { engine: EngineName; seconds: number; passed: boolean }[] = [];
for (const engine of engines) {
  console.log(`\nbrowser suite in ${engine}`);
  const start = performance.now();
  const run = spawnSync(process.execPath, vitest, {
    stdio: 'inherit',
    env: { ...process.env, BROWSER_ENGINE: engine },
  });
  results.push({ engine, seconds: (performance.now() - start) / 1000, passed: run.status === 0 });
}

console.log('\nbrowser suite per engine:');
for (const { engine, seconds, passed } of results) {
  console.log(`  ${engine.padEnd(8)} ${passed ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
}
process.exit(results.every((result) => result.passed) ? 0 : 1);
