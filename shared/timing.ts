/** The timings of SPEC.md section 9, in milliseconds. */
export const OVERLAY_CLOSE_DELAY_MS = 150;
export const CAROUSEL_INTERVAL_MS = 4000;
export const STUDIO_LABEL_FADE_MS = 200;
export const SLIDE_FADE_MS = 1000;
