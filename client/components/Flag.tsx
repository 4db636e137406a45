import type { Language } from '../../shared/languages.ts';

/**
 * Flags are drawn, not emoji: some systems show emoji flags as two letters.
 * `placement` keeps the ids inside each drawing unique on the page; it is not
 * React's useId because the server renders the document around the app, which
 * would give the ids a different tree position than in the browser.
 */
export function Flag({ language, placement }: { language: Language; placement: string }) {
  const clipId = `flag-${language}-${placement}`;
  const common = { className: 'flag', width: 24, height: 16, 'aria-hidden': true, focusable: false } as const;
  switch (language) {
    case 'de':
      return (
        <svg {...common} viewBox="0 0 5 3">
          <rect width="5" height="1" fill="#000" />
          <rect y="1" width="5" height="1" fill="#D00" />
          <rect y="2" width="5" height="1" fill="#FFCE00" />
        </svg>
      );
    case 'es':
      return (
        <svg {...common} viewBox="0 0 3 2">
          <rect width="3" height="2" fill="#AA151B" />
          <rect y="0.5" width="3" height="1" fill="#F1BF00" />
        </svg>
      );
    case 'en':
      return (
        <svg {...common} viewBox="0 0 60 30" preserveAspectRatio="none">
          <clipPath id={clipId}>
            <path d="M30,15 h30 v15 z v15 h-30 z h-30 v-15 z v-15 h30 z" />
          </clipPath>
          <rect width="60" height="30" fill="#012169" />
          <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth="6" />
          <path d="M0,0 L60,30 M60,0 L0,30" clipPath={`url(#${clipId})`} stroke="#C8102E" strokeWidth="4" />
          <path d="M30,0 v30 M0,15 h60" stroke="#fff" strokeWidth="10" />
          <path d="M30,0 v30 M0,15 h60" stroke="#C8102E" strokeWidth="6" />
        </svg>
      );
  }
}
