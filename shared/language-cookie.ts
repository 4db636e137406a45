import { LANGUAGE_STORAGE_KEY, type Language } from './languages.ts';

/** The cookie that tells the server a visitor's choice; named like the localStorage entry. */
export const LANGUAGE_COOKIE_NAME = LANGUAGE_STORAGE_KEY;
/** One year: the choice outlives the event's run-up. */
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The cookie as one `Set-Cookie` header value or `document.cookie` assignment: the server sets it
 * for a `?lng=` link, the browser when the visitor chooses.
 */
export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE_NAME}=${language}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
}
