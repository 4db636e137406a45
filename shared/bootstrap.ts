import type { Language } from './languages.ts';
import type { PageAssets, PublicContent } from './content.ts';
import type { EventClock } from './event-clock.ts';

/** Everything the browser needs to hydrate the server's HTML, sent once in the page. */
export interface BootstrapData extends PageAssets {
  language: Language;
  /** Whether the visitor has chosen a language (the overlay shows while not). */
  languageChosen: boolean;
  translations: Record<string, unknown>;
  content: PublicContent;
  /** The event's clock the page was rendered at (null on pages that do not show it). */
  clock: EventClock | null;
}

/** The id of the `<script type="application/json">` element that carries the data. */
export const BOOTSTRAP_ELEMENT_ID = 'bootstrap-data';

const UNSAFE_IN_SCRIPT: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON that can sit inside a `<script>` element: no content can end the element
 * (`</script>`), open a comment (`<!--`) or break a JavaScript string (U+2028/9).
 * `JSON.parse` reads it back unchanged.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => UNSAFE_IN_SCRIPT[ch]!);
}
