import { spawnSync } from 'node:child_process';
import { buildProduction } from '../../scripts/harness/build.ts';

/** Fails the whole suite at once, with one line, when a cache is not installed; then builds. */
export default function setup() {
  for (const [binary, flag] of [
    ['varnishd', '-V'],
    ['nginx', '-v'],
  ] as const) {
    const found = spawnSync(binary, [flag], { stdio: 'ignore' });
    if (found.error || found.status !== 0) {
      throw new Error(`${binary} is not installed: apt-get install -y varnish nginx (the edge suite never skips)`);
    }
  }
  buildProduction();
}
