import { buildProduction } from '../scripts/harness/build.ts';

/** The tests serve the real production bundle, so they build it first. */
export default function buildOnce() {
  buildProduction();
}
