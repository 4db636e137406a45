import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildProduction } from '../scripts/harness/build.ts';

/**
 * The tests serve the real production bundle, so they build it first. What they and the servers
 * they start write to the temporary folder goes into one of the run's own, removed after it.
 */
export default function setUp() {
  buildProduction();
  const runFolder = mkdtempSync(path.join(tmpdir(), 'landing-tests-'));
  process.env.TMPDIR = runFolder;
  return () => rmSync(runFolder, { recursive: true, force: true });
}
