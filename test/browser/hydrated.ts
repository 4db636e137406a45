/**
 * Run in the page: whether React has taken over every part the journeys act on. The page's main
 * element and, where the page has them, the hero, the overlay's choices, the studio picker, the
 * footer and the studio cards carry React's fiber once hydrated; the frames' load buttons are
 * enabled once its effects have run. Self-contained, since drivers run it in the page from its source.
 */
export function pageHasHydrated(): boolean {
  const hydrated = (element: Element | null) =>
    !!element && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
  const hydratedIfThere = (selector: string) =>
    !document.querySelector(selector) || hydrated(document.querySelector(selector));
  // A frame's load button is enabled a render after hydration (useHydrated): a click before is no click.
  const loadButtonsEnabled = [...document.querySelectorAll<HTMLButtonElement>('.embed-placeholder__load')].every(
    (button) => !button.disabled,
  );
  return (
    loadButtonsEnabled &&
    hydrated(document.querySelector('main')) &&
    ['.hero', '.overlay__choice', '#studio-select', '.footer', '.studio-card'].every(hydratedIfThere)
  );
}
