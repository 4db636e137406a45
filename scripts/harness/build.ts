import { execFileSync } from 'node:child_process';
import { APP_ROOT } from '../../server/config/paths.ts';
import { DIST } from '../build-steps.ts';
import { isBuiltFromCurrentSources } from '../build-sources.ts';

/**
 * The production build (scripts/build.ts), in a process of its own, its output shown: what the
 * tests and benchmarks serve. Made only where dist/ was built from other sources, so that the
 * suites and benchmarks of one CI run share one build.
 */
export function buildProduction(): void {
  if (isBuiltFromCurrentSources(DIST)) {
    console.log('dist/ is built from the sources as they are: not built again');
    return;
  }
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: APP_ROOT, stdio: 'inherit' });
}
