/** The browser engines the browser suite drives, in the order `npm run test:browser` runs them. */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/**
 * `npm run test:browser`'s arguments: `--engine a,b` (or `--engine=a,b`) picks the engines; every
 * other argument goes to vitest as it was given, options with their values (`-t <name>`) included.
 */
export function browserSuiteArguments(argv: string[]): { engines: string[]; vitest: string[] } {
  let engines: string[] = [...ENGINE_NAMES];
  const vitest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--engine') engines = (argv[++i] ?? '').split(',');
    else if (arg.startsWith('--engine=')) engines = arg.slice('--engine='.length).split(',');
    else vitest.push(arg);
  }
  return { engines, vitest };
}
