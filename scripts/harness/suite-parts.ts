import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';

/** Where a failed journey's evidence goes: one folder per engine and journey (test/browser/evidence.ts). */
export const EVIDENCE_ROOT = path.join(APP_ROOT, 'test-results/browser');

/**
 * The journeys that spend most of their time waiting for the real clock to pass a moment (the
 * next whole minute, a rehearsal's shifted start): about half of an engine's suite in time, with
 * its browsers idle. Each engine runs them in a vitest process of their own, beside the rest of
 * its suite.
 */
export const WAITING_JOURNEYS = ['test/browser/event-clock.test.ts', 'test/browser/rehearsal.test.ts'] as const;

/**
 * Set by `npm run test:browser` for its vitest processes: it has built once and cleared the
 * engine's evidence, which each process's global setup then leaves alone.
 */
export const SUITE_PREPARED = 'BROWSER_SUITE_PREPARED';

/** One vitest process of an engine's suite: what it is called in the output, and its arguments. */
export interface SuitePart {
  name: string;
  vitest: string[];
}

/**
 * How many of the other journeys' files run at a time beside the waiting ones. Each file has its
 * own browser and server, and a journey waits on them most of the time: with one at a time, a core
 * stood idle half of the suite.
 */
export const OTHER_JOURNEYS_AT_ONCE = 2;

/**
 * The parts of one engine's suite that run side by side: the whole suite as the arguments ask for
 * it when there are any (a file, `-t <name>`), or else the waiting journeys beside all the others,
 * which run a few files at a time.
 */
export function suiteParts(passedOn: readonly string[]): SuitePart[] {
  if (passedOn.length > 0) return [{ name: 'the suite', vitest: [...passedOn] }];
  return [
    { name: 'the journeys on the clock', vitest: [...WAITING_JOURNEYS] },
    {
      name: 'the other journeys',
      vitest: [
        ...WAITING_JOURNEYS.flatMap((file) => ['--exclude', file]),
        '--fileParallelism',
        `--maxWorkers=${OTHER_JOURNEYS_AT_ONCE}`,
      ],
    },
  ];
}
