import type { Request } from 'express';
import {
  DEFAULT_LANGUAGE,
  LANGUAGE_COOKIE_MAX_AGE_SECONDS,
  LANGUAGE_QUERY_PARAM,
  LANGUAGE_STORAGE_KEY,
  isLanguage,
  type Language,
} from '../../shared/languages.ts';

export interface LanguageChoice {
  language: Language;
  /** Whether the visitor has chosen (the overlay is shown while not). */
  chosen: boolean;
  /** Chosen by a `?lng=` link in this request: the answer sets the cookie. */
  fromQuery: boolean;
}

/** `?lng=` first, then the cookie; anything that is not de/en/es is ignored. */
export function resolveLanguage(req: Request): LanguageChoice {
  const query = req.query[LANGUAGE_QUERY_PARAM];
  if (isLanguage(query)) return { language: query, chosen: true, fromQuery: true };
  const cookie = readCookie(req.headers.cookie, LANGUAGE_STORAGE_KEY);
  if (isLanguage(cookie)) return { language: cookie, chosen: true, fromQuery: false };
  return { language: DEFAULT_LANGUAGE, chosen: false, fromQuery: false };
}

export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_STORAGE_KEY}=${language}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
