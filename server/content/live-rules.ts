import { liveStreamRulesOf, type LiveStreamRules } from './live-stream.ts';
import type { SiteContent } from './site-content.ts';

/**
 * What the live state is checked against and formed with: the content file's own facts. The live
 * file and the backend's row are checked with the same rules.
 */
export interface LiveRules {
  /** The offered languages' codes, the default first. */
  languages: readonly string[];
  /** What a backup stream is checked against; null while the content file has problems (live-stream.ts). */
  stream: LiveStreamRules | null;
}

/** The rules of a content file that loaded. */
export function liveRulesOf(content: SiteContent): LiveRules {
  return {
    languages: content.public.languages.map((language) => language.code),
    stream: liveStreamRulesOf(content),
  };
}

/**
 * The rules while the content file itself has problems: its languages, as it lists them. Its
 * frames are not known, so a backup stream cannot be checked and is left out with a warning.
 */
export function liveRulesOfLanguages(languages: readonly string[]): LiveRules {
  return { languages, stream: null };
}
