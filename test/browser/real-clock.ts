import type { Rehearsal } from '../../shared/rehearsal.ts';
import { startServer } from '../../scripts/harness/server-process.ts';
import type { Visitor } from './driver/visitor.ts';
import { waitForHydration } from './journey.ts';
import type { Browsers } from './site.ts';

/**
 * How long before a moment on the real clock a journey sets it, when `openings` server starts
 * and hydrated tabs must come first: 10 s, and one and a half times as long as that many took
 * for a probe on this machine just now (a fixed lead is too short on a busy machine and long on
 * a quiet one). In whole seconds.
 */
export async function leadTime(browsers: Browsers, openings: number): Promise<number> {
  const started = Date.now();
  const probe = await startServer();
  try {
    const visitor = await browsers.visitor(probe.url, { language: 'en' });
    await visitor.goto('/');
    await waitForHydration(visitor);
  } finally {
    await probe.stop();
  }
  return Math.ceil((10_000 + 1.5 * openings * (Date.now() - started)) / 1000) * 1000;
}

/**
 * A server's variables for a rehearsal whose event clock reads `instant` as it starts: a moment
 * on that clock comes at a chosen time from now, not at a whole minute of the real one.
 */
export function rehearsalAt(instant: number): NodeJS.ProcessEnv {
  return { REHEARSAL_CLOCK: new Date(instant).toISOString(), REHEARSAL_IN_PRODUCTION: 'yes' };
}

/** How far the page's event clock is ahead of the real one: the shift its server fixed as it started. */
export async function rehearsalShiftOf(visitor: Visitor): Promise<number> {
  const { shiftMs } = await visitor.evaluate(
    () =>
      (JSON.parse(document.getElementById('bootstrap-data')!.textContent!) as { app: { rehearsal: Rehearsal } }).app
        .rehearsal,
  );
  return shiftMs;
}
