/** The languages the page is offered in; the first is the default. */
export const LANGUAGES = ['de', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'de';

/** Name of the localStorage entry (and of the cookie, see language-cookie.ts) that keep a visitor's choice. */
export const LANGUAGE_STORAGE_KEY = 'selectedLanguage';
/** The query parameter of shareable language links: `?lng=en`. */
export const LANGUAGE_QUERY_PARAM = 'lng';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Each language's name in itself, as the pickers show it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
};

/** BCP 47 locale used for dates and Open Graph, per language. */
export const LANGUAGE_LOCALES: Record<Language, string> = {
  de: 'de-AT',
  en: 'en-GB',
  es: 'es-ES',
};

export function languageHref(language: Language): string {
  return `?${LANGUAGE_QUERY_PARAM}=${language}`;
}
