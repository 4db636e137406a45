import type { SuiteFailure } from './suite-failures.ts';

/** How one engine's suite ended: whether it passed, and what failed (null when no report says). */
export interface SuiteOutcome {
  passed: boolean;
  failures: SuiteFailure[] | null;
}

/** One engine's suite in one run: its time and how it ended. */
export interface SuiteResult<Engine extends string> extends SuiteOutcome {
  run: number;
  engine: Engine;
  seconds: number;
}

/**
 * The suite `runs` times in a row, each run in every engine one after the other; a run with any
 * engine red is the last (its remaining engines still run, so the run's picture is whole).
 */
export async function runSuites<Engine extends string>(
  runs: number,
  engines: readonly Engine[],
  runSuite: (engine: Engine, run: number) => Promise<SuiteOutcome>,
  clock: () => number = () => performance.now(),
): Promise<SuiteResult<Engine>[]> {
  const results: SuiteResult<Engine>[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const engine of engines) {
      const start = clock();
      const outcome = await runSuite(engine, run);
      results.push({ run, engine, seconds: (clock() - start) / 1000, ...outcome });
    }
    if (results.some((result) => !result.passed)) break;
  }
  return results;
}

/** A line per engine and run with its time, and under a red one each failed journey, why, and where its evidence is. */
export function summaryLines(results: readonly SuiteResult<string>[], runs: number): string[] {
  const lines: string[] = [];
  for (const { run, engine, seconds, passed, failures } of results) {
    const which = runs > 1 ? `run ${run}  ` : '';
    lines.push(`  ${which}${engine.padEnd(8)} ${passed ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
    if (passed) continue;
    if (!failures?.length) lines.push('    no report names a failed journey: see the output above');
    for (const failure of failures ?? []) {
      lines.push(`    ✗ ${failure.journey}`, `      ${failure.reason}`);
      if (failure.at) lines.push(`      at ${failure.at}`);
      if (failure.evidence) lines.push(`      evidence: ${failure.evidence}`);
    }
  }
  return lines;
}

/**
 * One outcome of the parts of an engine's suite that ran side by side: passed if every part did,
 * with every failure their reports name; a red part without a report is named as such.
 */
export function joinedOutcome(parts: readonly { name: string; outcome: SuiteOutcome }[]): SuiteOutcome {
  if (parts.length === 1) return parts[0]!.outcome;
  const passed = parts.every(({ outcome }) => outcome.passed);
  const failures = parts.flatMap(
    ({ name, outcome }) =>
      outcome.failures ??
      (outcome.passed ? [] : [{ journey: name, reason: 'no report names what failed: see the output above' }]),
  );
  return { passed, failures };
}
