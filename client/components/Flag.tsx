import type { LanguageInfo } from '../../shared/languages.ts';

/**
 * A language's flag as its locale file names it, drawn inline (not an emoji: some systems show
 * emoji flags as two letters); a neutral mark where the language names none. The drawing comes
 * from the server's flag set or the language folder's own file, checked at start.
 */
export function Flag({ language }: { language: LanguageInfo }) {
  if (!language.flagSvg) return <span className="flag flag--none" aria-hidden="true" />;
  return <span className="flag" aria-hidden="true" dangerouslySetInnerHTML={{ __html: language.flagSvg }} />;
}
