/**
 * The browser entry is kept tiny: the first frame is painted from the server's HTML
 * alone, and only once the browser reports that paint (its first-contentful-paint entry)
 * is the app fetched and started, so nothing of it competes with that paint. Where paint
 * timing is not supported, the app starts right after the first frame instead.
 */
function start() {
  void import('./boot.tsx').then(({ boot }) => boot());
}

if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    setTimeout(start);
  });
  observer.observe({ type: 'paint', buffered: true });
} else {
  requestAnimationFrame(() => setTimeout(start));
}
