/** One engine's suite in one run: its time and whether it passed. */
export interface SuiteResult<Engine extends string> {
  run: number;
  engine: Engine;
  seconds: number;
  passed: boolean;
}

/**
 * The suite `runs` times in a row, each run in every engine one after the other; a run with any
 * engine red is the last (its remaining engines still run, so the run's picture is whole).
 */
export function runSuites<Engine extends string>(
  runs: number,
  engines: readonly Engine[],
  runSuite: (engine: Engine, run: number) => boolean,
  clock: () => number = () => performance.now(),
): SuiteResult<Engine>[] {
  const results: SuiteResult<Engine>[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const engine of engines) {
      const start = clock();
      const passed = runSuite(engine, run);
      results.push({ run, engine, seconds: (clock() - start) / 1000, passed });
    }
    if (results.some((result) => !result.passed)) break;
  }
  return results;
}
