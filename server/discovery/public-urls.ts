import { LANGUAGE_QUERY_PARAM, type Language } from '../../shared/languages.ts';

/** `<origin><path>?lng=<code>`, or the path alone (the `x-default` address) without a language. */
export function pageUrl(publicOrigin: string, path: string, language?: Language): string {
  const url = new URL(path, publicOrigin);
  if (language) url.searchParams.set(LANGUAGE_QUERY_PARAM, language);
  return url.href;
}

/** One page's address in every language, plus `x-default`: the alternates of hreflang and the sitemap. */
export function languageAlternates(
  publicOrigin: string,
  path: string,
  languages: readonly Language[],
): { hreflang: Language | 'x-default'; href: string }[] {
  return [
    ...languages.map((language) => ({ hreflang: language, href: pageUrl(publicOrigin, path, language) })),
    { hreflang: 'x-default' as const, href: pageUrl(publicOrigin, path) },
  ];
}

/** An image address from the page's data ("/images/a.jpg" or https://…) made absolute against the public origin. */
export function absoluteUrl(publicOrigin: string, address: string): string {
  return new URL(address, publicOrigin).href;
}
