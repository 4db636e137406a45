import type { Language } from './languages.ts';
import type { PageAssets, PublicContent } from './page-data.ts';
import type { EventClock } from './event-clock.ts';
import type { LiveState } from './live-state.ts';
import type { Rehearsal } from './rehearsal.ts';

/** What the page shows beyond its texts, the same in every language. */
export interface AppData extends PageAssets {
  content: PublicContent;
  /** The notice and status the event team set without a restart, as the page was rendered with them. */
  live: LiveState;
  /**
   * The event's clock as the server rendered the page, which the browser's first render
   * repeats; null on pages that do not show it.
   */
  clock: EventClock | null;
  /** A rehearsal's shifted event clock, which the browser's event clock follows too; null on the real clock. */
  rehearsal: Rehearsal | null;
}

/** The page as the server rendered it: what the browser's first render repeats. */
export interface RenderedPage {
  language: Language;
  /** Whether the visitor has chosen a language (the overlay shows while not). */
  languageChosen: boolean;
  app: AppData;
}

/**
 * Everything the browser needs to hydrate the server's HTML, sent once in the page: the server
 * writes it and the browser reads it as it is.
 */
export interface BootstrapData extends RenderedPage {
  /** The rendered language's dictionary, so that the first render needs no request. */
  translations: Record<string, unknown>;
  /** How often the open page asks for the live state, at most (LIVE_POLL_SECONDS). */
  livePollSeconds: number;
}

/** The id of the element the app is rendered into and hydrated. */
export const ROOT_ELEMENT_ID = 'root';

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
