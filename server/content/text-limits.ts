/**
 * The longest text of each kind the hero and the programme are laid out for, in characters
 * (Unicode code points, as a JSON Schema's `maxLength` counts them). The one source of these limits: the content file's
 * check, the locale files' check and the backend's slide labels all read them here, and
 * docs/event-team.md states them. test/browser/long-names.test.ts holds the layout to them: at
 * 390×844, with every hero text at its limit and the name holding a 60-character word, no page
 * scrolls sideways and the hero's button is within the first two screens.
 */
export const TEXT_LIMITS = {
  /** The event's name, `product` in each locale file: the hero's title and its logo's text. */
  name: 80,
  /** The hero's title as shown, `$t(product)` counted as the name it stands for. */
  title: 80,
  tagline: 120,
  /** A studio's name (the hero's label of its slides, its card, the picker), and a backend slide's label. */
  studioName: 60,
  /** A studio's city or display city, each of the four in the hero's line of cities. */
  city: 40,
  /** A button's label. */
  button: 40,
  /** "Live now". */
  badge: 30,
  /** What the hero says after the end, or of an event cancelled or postponed. */
  phaseSentence: 120,
  /** The countdown's line, with `{{duration}}` as written. */
  countdown: 40,
  /** One unit of the countdown ("{{count}} days"), each plural form. */
  countdownUnit: 20,
  /** The line of the visitor's own times, with `{{time}}` as written. */
  visitorTime: 40,
  /** The live file's notice, in each language: a few lines at the top of every page, above the hero. */
  notice: 200,
  /** A segment's title in the programme. */
  segmentTitle: 70,
  /** A segment's line of description in the programme. */
  segmentDescription: 160,
} as const;

/**
 * The locale files' texts the hero shows and the limit of each, by key; a plural family's limit
 * (`countdown.days`) holds for each of its forms (`countdown.days_one`, `countdown.days_other`).
 */
export const LOCALE_TEXT_LIMITS: Readonly<Record<string, number>> = {
  product: TEXT_LIMITS.name,
  'hero.title': TEXT_LIMITS.title,
  'hero.tagline': TEXT_LIMITS.tagline,
  'hero.loadingStudios': TEXT_LIMITS.studioName,
  'hero.cta': TEXT_LIMITS.button,
  'hero.ctaLive': TEXT_LIMITS.button,
  'hero.addToCalendar': TEXT_LIMITS.button,
  'hero.recording': TEXT_LIMITS.button,
  'hero.pause': TEXT_LIMITS.button,
  'hero.play': TEXT_LIMITS.button,
  'hero.live': TEXT_LIMITS.badge,
  'hero.ended': TEXT_LIMITS.phaseSentence,
  'hero.cancelled': TEXT_LIMITS.phaseSentence,
  'hero.postponed': TEXT_LIMITS.phaseSentence,
  'hero.yourTime': TEXT_LIMITS.visitorTime,
  'countdown.startsIn': TEXT_LIMITS.countdown,
  'countdown.days': TEXT_LIMITS.countdownUnit,
  'countdown.hours': TEXT_LIMITS.countdownUnit,
  'countdown.minutes': TEXT_LIMITS.countdownUnit,
  'countdown.seconds': TEXT_LIMITS.countdownUnit,
};

/** The limits of a segment's texts (`programme.segments.<id>.<field>`), by field. */
const SEGMENT_TEXT_LIMITS: Readonly<Record<string, number>> = {
  title: TEXT_LIMITS.segmentTitle,
  description: TEXT_LIMITS.segmentDescription,
};

/** A locale text's limit by its key, a segment's text's included; undefined for a text with none. */
export function localeTextLimit(key: string): number | undefined {
  const segmentField = /^programme\.segments\.[^.]+\.([^.]+)$/.exec(key)?.[1];
  return segmentField === undefined ? LOCALE_TEXT_LIMITS[key] : SEGMENT_TEXT_LIMITS[segmentField];
}

/** A text's length in characters: code points, so that "ü" and "🎬" count one each. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Why a text is too long for its place, or null: "has 183 characters, at most 120". */
export function lengthProblem(text: string, limit: number): string | null {
  const count = characterCount(text);
  return count > limit ? `has ${count} characters, at most ${limit}` : null;
}
