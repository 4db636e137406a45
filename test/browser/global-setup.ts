import buildOnce from '../global-setup.ts';
import { assertChromium } from '../../scripts/harness/chromium.ts';

/** Fails the whole suite at once, with one line, when Chromium is missing; then builds. */
export default function setup() {
  assertChromium();
  buildOnce();
}
