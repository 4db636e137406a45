/** The browser engines the browser suite drives, in the order `npm run test:browser` runs them. */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export interface BrowserSuiteArguments {
  engines: string[];
  /** How many times the suite runs in a row, in every engine. */
  runs: number;
  /** Whether a process keeps one core busy the whole time, as other work does on a shared machine. */
  busy: boolean;
  vitest: string[];
}

/**
 * `npm run test:browser`'s arguments: `--engine a,b` (or `--engine=a,b`) picks the engines,
 * `--runs N` runs the suite N times in a row, `--busy` keeps one core busy meanwhile; every other
 * argument goes to vitest as it was given, options with their values (`-t <name>`) included.
 */
export function browserSuiteArguments(argv: string[]): BrowserSuiteArguments {
  let engines: string[] = [...ENGINE_NAMES];
  let runs = '1';
  let busy = false;
  const vitest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--engine') engines = (argv[++i] ?? '').split(',');
    else if (arg.startsWith('--engine=')) engines = arg.slice('--engine='.length).split(',');
    else if (arg === '--runs') runs = argv[++i] ?? '';
    else if (arg.startsWith('--runs=')) runs = arg.slice('--runs='.length);
    else if (arg === '--busy') busy = true;
    else vitest.push(arg);
  }
  if (!/^[1-9]\d*$/.test(runs))
    throw new Error(`--runs takes a whole number of runs, 1 or more, not ${JSON.stringify(runs)}`);
  return { engines, runs: Number(runs), busy, vitest };
}
