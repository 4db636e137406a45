import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Visitor } from './driver/visitor.ts';

/**
 * axe-core's script as a function the drivers can run in the page: they compile what they run
 * themselves, so the page's Content-Security-Policy (no eval, scripts from the site only) does not
 * stand in its way, in any engine.
 */
const installAxe = new Function(
  readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
) as () => void;

/** The rules axe finds broken on the visitor's page, each with the elements concerned. */
export async function axeViolations(visitor: Visitor, tags: string[]): Promise<{ rule: string; nodes: string[] }[]> {
  await visitor.evaluate(installAxe);
  return visitor.evaluate(async (runOnly) => {
    const { axe } = window as unknown as {
      axe: {
        run(
          context: Document,
          options: { runOnly: string[] },
        ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const { violations } = await axe.run(document, { runOnly });
    return violations.map((v) => ({ rule: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  }, tags);
}
