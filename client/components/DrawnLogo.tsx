/** Names up to this many characters are set at the sample logo's size; longer ones smaller. */
const FULL_SIZE_UP_TO = 20;
/** Above this, the smallest size: the longest name the content check allows still fits a phone. */
const MIDDLE_SIZE_UP_TO = 40;

export interface LogoLines {
  /** The first word, set large: "Horizon". */
  lead: string;
  /** The rest of the name, set small beneath it: "Live 2027"; empty for a name of one word. */
  rest: string;
  /** The size class the name's length calls for. */
  size: 'full' | 'middle' | 'small';
}

/**
 * How the name is set in the drawn logo: its first word on the first line, the rest on the second,
 * as the sample's mark sets "HORIZON / LIVE 2027"; smaller as the name grows.
 */
export function logoLines(name: string): LogoLines {
  const trimmed = name.trim();
  const space = trimmed.search(/\s/);
  const [lead, rest] = space < 0 ? [trimmed, ''] : [trimmed.slice(0, space), trimmed.slice(space).trim()];
  const length = [...trimmed].length;
  const size = length <= FULL_SIZE_UP_TO ? 'full' : length <= MIDDLE_SIZE_UP_TO ? 'middle' : 'small';
  return { lead, rest, size };
}

/**
 * The sample's logo drawn with the event's name in the page's language: the mark (a horizon under
 * a rising arc) beside the name as text, so a renamed event needs no picture of its own, a long
 * name wraps within the logo's box, and a right-to-left name is set right to left with the mark
 * at the line's start. It is one image to assistive technology, named by the name.
 */
export function DrawnLogo({ name }: { name: string }) {
  const { lead, rest, size } = logoLines(name);
  return (
    <p className={`logo logo--drawn logo--${size}`} role="img" aria-label={name}>
      <svg className="logo__mark" viewBox="0 0 120 120" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id="logo-ring" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#ffd45c" />
            <stop offset="1" stopColor="#f5b700" />
          </linearGradient>
        </defs>
        <circle cx="60" cy="60" r="46" fill="none" stroke="url(#logo-ring)" strokeWidth="8" />
        <path d="M22 70 H98" stroke="#fff" strokeWidth="8" strokeLinecap="round" />
        <path d="M36 52 a24 24 0 0 1 48 0" fill="none" stroke="#fff" strokeWidth="8" strokeLinecap="round" />
        <circle cx="60" cy="86" r="6" fill="#ff4d5e" />
      </svg>
      <span className="logo__name">
        <span className="logo__lead">{lead}</span>
        {rest && (
          <>
            {' '}
            <span className="logo__rest">{rest}</span>
          </>
        )}
      </span>
    </p>
  );
}
