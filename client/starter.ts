/**
 * The page's one inline script (the build minifies it into the manifest, and the
 * Content-Security-Policy allows it by its hash). The first frame is painted from the server's
 * HTML alone, and only once the browser reports that paint (its first-contentful-paint entry)
 * is the app module fetched, so nothing of it competes with that paint: not even a request for
 * this starter. Where paint timing is not supported, the app starts right after the first frame;
 * where no paint is reported, a while after the page has loaded.
 *
 * A classic script, so it keeps its names to itself inside a function of its own.
 */

/** The app module's hashed address, put in by the build. */
declare const APP_MODULE: string;

(() => {
  /**
   * How long after the load event the app waits for a paint to be reported. The paint timing
   * spec does not promise one: Firefox reports none for a page it loaded in a tab behind another,
   * not even once the tab is shown.
   */
  const UNREPORTED_PAINT_MS = 2_000;
  let started = false;
  const paints = PerformanceObserver.supportedEntryTypes?.includes('paint')
    ? new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length) startApp();
      })
    : null;
  const startApp = () => {
    if (started) return;
    started = true;
    paints?.disconnect();
    setTimeout(() => void import(APP_MODULE));
  };
  if (paints) {
    paints.observe({ type: 'paint', buffered: true });
    addEventListener('load', () => setTimeout(startApp, UNREPORTED_PAINT_MS), { once: true });
  } else {
    requestAnimationFrame(startApp);
  }
})();

export {};
