import { rmSync } from 'node:fs';
import path from 'node:path';
import { buildProduction } from '../../scripts/harness/build.ts';
import { assertEngine, currentEngineName } from './driver/engines.ts';
import { EVIDENCE_ROOT } from './evidence.ts';
import { SUITE_PREPARED } from '../../scripts/harness/suite-parts.ts';

/**
 * Fails the whole suite at once, with one line, when the engine's browser is missing; clears the
 * evidence an earlier run left for this engine, so what is there belongs to this run; then builds.
 * Under `npm run test:browser`, which has done both for the engine's processes, it only checks.
 */
export default function setup() {
  const engine = currentEngineName();
  assertEngine[engine]();
  if (process.env[SUITE_PREPARED]) return;
  rmSync(path.join(EVIDENCE_ROOT, engine), { recursive: true, force: true });
  buildProduction();
}
