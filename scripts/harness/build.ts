import { execFileSync } from 'node:child_process';
import { APP_ROOT } from '../../server/config/paths.ts';

/** The production build (scripts/build.ts), in a process of its own, its output shown: what the tests and benchmarks serve. */
export function buildProduction(): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: APP_ROOT, stdio: 'inherit' });
}
