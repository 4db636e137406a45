import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Visitor } from './driver/visitor.ts';

/** The rules of WCAG 2.2 at levels A and AA, as axe tags them. */
export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * axe-core's script as a function the drivers can run in the page: they compile what they run
 * themselves, so the page's Content-Security-Policy (no eval, scripts from the site only) does not
 * stand in its way, in any engine.
 */
const installAxe = new Function(
  readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
) as () => void;

export interface Violation {
  rule: string;
  impact: string | null | undefined;
  nodes: string[];
}

/** The rules axe finds broken on the visitor's page as it is now, each with the elements concerned. */
export async function axeViolations(visitor: Visitor, tags: string[]): Promise<Violation[]> {
  await visitor.evaluate(installAxe);
  return visitor.evaluate(async (runOnly) => {
    const { axe } = window as unknown as {
      axe: {
        run(
          context: Document,
          options: { runOnly: string[] },
        ): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: string[] }[] }[] }>;
      };
    };
    const { violations } = await axe.run(document, { runOnly });
    return violations.map((v) => ({ rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  }, tags);
}

/**
 * axe's WCAG 2.2 A/AA findings on a loaded page, once it is as a visitor who scrolled through it
 * would see it: the hero's slides in place, and every section laid out once. axe scrolls an
 * element into view to find the colours behind it and looks at once: a smooth scroll (the page's,
 * where motion is not reduced) has not moved yet, and Chromium then finds the footer behind a
 * link of the map's panel; so smooth scrolling is off. The sections below the first screen are
 * laid out only once near the viewport (content-visibility: auto).
 */
export async function wcagViolations(visitor: Visitor): Promise<Violation[]> {
  await visitor.waitFor(
    () => !document.querySelector('.hero') || !!document.querySelector('.hero__slides > :nth-child(2)'),
    undefined,
    { timeout: 20_000, what: "the hero's slides" },
  );
  await scrollThrough(visitor);
  return axeViolations(visitor, WCAG_22_AA);
}

/** Scrolls the page from top to bottom and back, without smooth scrolling, a frame at each step: every section is laid out once. */
export async function scrollThrough(visitor: Visitor): Promise<void> {
  await visitor.evaluate(async () => {
    document.documentElement.style.scrollBehavior = 'auto';
    for (let y = 0; y < document.body.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
    }
    window.scrollTo(0, 0);
  });
}
