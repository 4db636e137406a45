import { execFileSync } from 'node:child_process';

/** The tests serve the real production bundle, so they build it first. */
export default function buildOnce() {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
}
