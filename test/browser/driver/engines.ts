import { assertHeadlessChromium } from '../../../scripts/harness/chromium.ts';
import { launchChromium } from './chromium.ts';
import { assertFirefox, launchFirefox } from './firefox.ts';
import { ENGINE_NAMES, type Engine, type EngineName } from './types.ts';
import { assertWebKit, launchWebKit } from './webkit.ts';

/** The engine this run of the suite drives: BROWSER_ENGINE, Chromium unless it names another. */
export function currentEngineName(): EngineName {
  const name = process.env.BROWSER_ENGINE || 'chromium';
  if (!(ENGINE_NAMES as readonly string[]).includes(name)) {
    throw new Error(`BROWSER_ENGINE "${name}" is not one of ${ENGINE_NAMES.join(', ')}`);
  }
  return name as EngineName;
}

export const launchEngine: Record<EngineName, () => Promise<Engine>> = {
  chromium: launchChromium,
  firefox: launchFirefox,
  webkit: launchWebKit,
};

/** Throws one line saying how to install the engine's browser when it is missing. */
export const assertEngine: Record<EngineName, () => void> = {
  chromium: assertHeadlessChromium,
  firefox: assertFirefox,
  webkit: assertWebKit,
};
