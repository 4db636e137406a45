import buildOnce from '../global-setup.ts';
import { assertEngine, currentEngineName } from './driver/engines.ts';

/** Fails the whole suite at once, with one line, when the engine's browser is missing; then builds. */
export default function setup() {
  assertEngine[currentEngineName()]();
  buildOnce();
}
