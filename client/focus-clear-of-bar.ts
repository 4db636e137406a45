/** The sticky bar at the top that holds the language control. */
const BAR_SELECTOR = '.language-menu';
/** The bar a notice that came later shows in, at the bottom of the viewport (LateLiveNotice). */
const BOTTOM_BAR_SELECTOR = '.live-notice-region [data-testid="live-notice"]';
/** That bar with its close button, which the keyboard reaches in the bar itself. */
const BOTTOM_BAR_CONTAINER = '.live-notice-bar';

/**
 * Keeps the element the keyboard focuses out from under the sticky language bar, and from under
 * the live notice's bar at the bottom while one shows. The stylesheet's `scroll-padding` does it
 * for the top bar in Chromium and WebKit; Firefox scrolls a focused element only when it is
 * outside the viewport, so one half under the bar stayed there, and the bottom bar's height is
 * the notice's own. Once the browser has done its own scrolling, whatever is still under a bar
 * is scrolled clear of it.
 */
export function keepFocusClearOfBar(doc: Document = document): () => void {
  const onFocus = (event: FocusEvent) => {
    const element = event.target;
    if (!(element instanceof HTMLElement) || !element.matches(':focus-visible')) return;
    const bar = doc.querySelector(BAR_SELECTOR);
    const bottomBar = doc.querySelector(BOTTOM_BAR_SELECTOR);
    if (bar?.contains(element) || element.closest(BOTTOM_BAR_CONTAINER)) return;
    requestAnimationFrame(() => {
      const box = element.getBoundingClientRect();
      const barBottom = bar?.getBoundingClientRect().bottom ?? 0;
      const bottomBarTop = bottomBar?.getBoundingClientRect().top ?? Infinity;
      // At once, as browsers scroll to a focused element: a smooth scroll would still be under way
      // when the next Tab comes.
      if (box.top < barBottom) doc.defaultView?.scrollBy({ top: box.top - barBottom, behavior: 'instant' });
      else if (box.bottom > bottomBarTop)
        doc.defaultView?.scrollBy({ top: box.bottom - bottomBarTop, behavior: 'instant' });
    });
  };
  doc.addEventListener('focusin', onFocus);
  return () => doc.removeEventListener('focusin', onFocus);
}
