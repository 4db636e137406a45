/**
 * The languages the page is offered in are data: the content file lists their codes (the first is
 * the default) and each one's locale file describes it (see server/content/languages.ts). This
 * module holds what both sides need to speak of them.
 */

/** A language code as the content file, `?lng=` and the cookie write it: "de", "pt-BR". */
export type Language = string;

/** Two or three lowercase letters, then any `-subtags` (BCP 47's shape, as the edge keys it). */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** One offered language, as its locale file's `language` block describes it. */
export interface LanguageInfo {
  code: Language;
  /** Its name in itself, as the pickers show it: "Deutsch". */
  name: string;
  /** The BCP 47 locale for dates, numbers and Open Graph: "de-AT". */
  locale: string;
  dir: 'ltr' | 'rtl';
  /** The flag's drawing (SVG markup), or null for the neutral mark. */
  flagSvg: string | null;
}

/** Name of the localStorage entry (and of the cookie, see language-cookie.ts) that keep a visitor's choice. */
export const LANGUAGE_STORAGE_KEY = 'selectedLanguage';
/** The query parameter of shareable language links: `?lng=en`. */
export const LANGUAGE_QUERY_PARAM = 'lng';

/** Whether `value` is one of the offered languages' codes. */
export function isOffered(languages: readonly LanguageInfo[], value: unknown): value is Language {
  return typeof value === 'string' && languages.some((language) => language.code === value);
}

/** The offered language of that code. */
export function languageInfo(languages: readonly LanguageInfo[], code: Language): LanguageInfo {
  const info = languages.find((language) => language.code === code);
  if (!info) throw new Error(`"${code}" is not an offered language`);
  return info;
}

export function languageHref(language: Language): string {
  return `?${LANGUAGE_QUERY_PARAM}=${language}`;
}

/** A value kept per offered language (every offered language has one): the one for `language`. */
export function inLanguage<T>(values: Readonly<Record<Language, T>>, language: Language): T {
  const value = values[language];
  if (value === undefined) throw new Error(`No value for the language "${language}"`);
  return value;
}
