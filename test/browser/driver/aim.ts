/** Where a visitor's mouse would click an element, and what it would hit there. */
export interface Aim {
  x: number;
  y: number;
  /** What lies at that point instead of the element (or one of its labels); empty when the element does. */
  hit: string;
}

/**
 * Run in the page: the centre of `element`, brought into view first when `scroll`, and what is at
 * that point if the element is not. With `afterFrames`, measured after two animation frames, so
 * that at least one update of the rendering (where sections further up, with
 * `content-visibility`, take their size as they come into view and move what lies below) comes
 * between a scroll and the measurement, on a busy machine too; without, at once (Firefox gives a
 * page that runs no scripts no animation frames, not even the driver's).
 */
export function aimAt(element: Element, scroll: boolean, afterFrames = true): Promise<Aim> {
  // At once: the page's smooth scroll-behavior would still be under way when the mouse comes.
  if (scroll) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const measure = (): Aim => {
    const box = element.getBoundingClientRect();
    const x = Math.round(box.left + box.width / 2);
    const y = Math.round(box.top + box.height / 2);
    const there = document.elementFromPoint(x, y);
    const labels = 'labels' in element && element.labels ? [...(element.labels as NodeListOf<Element>)] : [];
    const mine = !!there && (element.contains(there) || labels.some((label) => label.contains(there)));
    return { x, y, hit: mine ? '' : there ? there.outerHTML.slice(0, 120) : 'nothing' };
  };
  if (!afterFrames) return Promise.resolve(measure());
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(measure()))));
}

/**
 * Aims at the element with `measure` (which runs `aimAt` in the page) until two measurements in
 * a row agree and nothing covers it: brought into view again while it still moves. Throws when it
 * is covered at its centre.
 */
export async function aimWhenStill(selector: string, measure: (scroll: boolean) => Promise<Aim>): Promise<Aim> {
  let at = await measure(true);
  for (let tries = 0; tries < 20; tries++) {
    const now = await measure(false);
    if (now.x === at.x && now.y === at.y && !now.hit) return now;
    at = await measure(true);
  }
  if (at.hit) throw new Error(`${selector} is under ${at.hit} at its centre (${at.x}, ${at.y})`);
  return at;
}
