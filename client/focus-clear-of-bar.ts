/** The sticky bar at the top that holds the language control. */
const BAR_SELECTOR = '.language-menu';

/**
 * Keeps the element the keyboard focuses out from under the sticky language bar. The
 * stylesheet's `scroll-padding` does it in Chromium and WebKit; Firefox scrolls a focused element
 * only when it is outside the viewport, so one half under the bar stayed there. Once the browser
 * has done its own scrolling, whatever is still under the bar is scrolled clear of it.
 */
export function keepFocusClearOfBar(doc: Document = document): () => void {
  const onFocus = (event: FocusEvent) => {
    const element = event.target;
    if (!(element instanceof HTMLElement) || !element.matches(':focus-visible')) return;
    const bar = doc.querySelector(BAR_SELECTOR);
    if (!bar || bar.contains(element)) return;
    requestAnimationFrame(() => {
      const barBottom = bar.getBoundingClientRect().bottom;
      const top = element.getBoundingClientRect().top;
      // At once, as browsers scroll to a focused element: a smooth scroll would still be under way
      // when the next Tab comes.
      if (top < barBottom) doc.defaultView?.scrollBy({ top: top - barBottom, behavior: 'instant' });
    });
  };
  doc.addEventListener('focusin', onFocus);
  return () => doc.removeEventListener('focusin', onFocus);
}
