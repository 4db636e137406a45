import type { IncomingHttpHeaders } from 'node:http';
import { LANGUAGE_COOKIE_NAME } from '../../shared/language-cookie.ts';
import { LANGUAGE_QUERY_PARAM, type Language } from '../../shared/languages.ts';

export interface LanguageChoice {
  language: Language;
  /** Whether the visitor has chosen (the overlay is shown while not). */
  chosen: boolean;
  /** Chosen by a `?lng=` link in this request: the answer sets the cookie. */
  fromQuery: boolean;
  /**
   * The cookie names a language that is not offered (one since removed, or made up): the page is
   * a first visit's, but a shared cache keyed on the cookie's value must not keep it under that
   * value, or made-up values would each keep a copy.
   */
  unoffered: boolean;
}

/** What of a request its language is read from: Express's parsed query and the headers. */
export interface LanguageSources {
  query: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/** `?lng=` first, then the cookie; a language that is not offered is ignored, and the first offered is the default. */
export function resolveLanguage(req: LanguageSources, languages: readonly Language[]): LanguageChoice {
  const offered = (value: unknown): value is Language => typeof value === 'string' && languages.includes(value);
  const query = req.query[LANGUAGE_QUERY_PARAM];
  if (offered(query)) return { language: query, chosen: true, fromQuery: true, unoffered: false };
  const cookie = readCookie(req.headers.cookie, LANGUAGE_COOKIE_NAME);
  if (offered(cookie)) return { language: cookie, chosen: true, fromQuery: false, unoffered: false };
  return { language: languages[0]!, chosen: false, fromQuery: false, unoffered: cookie !== undefined };
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
