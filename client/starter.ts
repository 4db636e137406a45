/**
 * The page's one inline script (the build minifies it into the manifest, and the
 * Content-Security-Policy allows it by its hash). The first frame is painted from the server's
 * HTML alone, and only once the browser reports that paint (its first-contentful-paint entry)
 * is the app module fetched, so nothing of it competes with that paint: not even a request for
 * this starter. Where paint timing is not supported, the app starts right after the first frame.
 *
 * A classic script, so it keeps its names to itself inside a function of its own.
 */

/** The app module's hashed address, put in by the build. */
declare const APP_MODULE: string;

(() => {
  const startApp = () => setTimeout(() => void import(APP_MODULE));
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      startApp();
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    requestAnimationFrame(startApp);
  }
})();

export {};
