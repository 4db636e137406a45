import type { SiteContent } from './site-content.ts';

/**
 * What the live state is checked against and formed with: the content file's own facts. The live
 * file and the backend's row are checked with the same rules.
 */
export interface LiveRules {
  /** The offered languages' codes, the default first. */
  languages: readonly string[];
}

/** The rules of a content file that loaded. */
export function liveRulesOf(content: SiteContent): LiveRules {
  return { languages: content.public.languages.map((language) => language.code) };
}

/** The rules while the content file itself has problems: its languages, as it lists them. */
export function liveRulesOfLanguages(languages: readonly string[]): LiveRules {
  return { languages };
}
