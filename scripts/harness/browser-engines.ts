/** The browser engines the browser suite drives, in the order `npm run test:browser` runs them. */
export const ENGINE_NAMES = ['chromium', 'firefox', 'webkit'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];
