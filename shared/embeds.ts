/**
 * The third-party frames the page can show (the stream, the studios' maps): who provides them,
 * when they load, and the address a frame is given, in the page's language.
 */

/** `on-click`: behind a placeholder of the site's own until the visitor asks; `at-once`: as soon as the page has hydrated. */
export const EMBED_LOADS = ['on-click', 'at-once'] as const;
export type EmbedLoad = (typeof EMBED_LOADS)[number];

/** Who serves a frame, as the page and its privacy policy name them. */
export interface EmbedProvider {
  name: string;
  /** The provider's own privacy policy. */
  privacyUrl: string;
  load: EmbedLoad;
}

/** The name of the localStorage entry listing the providers a visitor chose to always load (by name). */
export const ALWAYS_LOAD_STORAGE_KEY = 'alwaysLoadEmbeds';
