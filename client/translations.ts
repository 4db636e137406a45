import type { i18n as I18n } from 'i18next';
import type { Language } from '../shared/languages.ts';
import { NAMESPACE } from '../shared/i18n-options.ts';

/** Loads under way or done, per i18next instance, so a language is fetched once. */
const loads = new WeakMap<I18n, Map<Language, Promise<void>>>();

/**
 * Makes sure a language's dictionary is in the instance, fetching its file once.
 * A failed load is logged and otherwise ignored: the page then shows the keys.
 */
export function ensureTranslations(i18n: I18n, language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, NAMESPACE)) return Promise.resolve();
  let loading = loads.get(i18n);
  if (!loading) loads.set(i18n, (loading = new Map()));
  let pending = loading.get(language);
  if (!pending) {
    pending = fetchTranslations(language)
      .then((dictionary) => void i18n.addResourceBundle(language, NAMESPACE, dictionary))
      .catch((error: unknown) => {
        loading.delete(language); // let a later choice try again
        console.error('Failed to load translations', error);
      });
    loading.set(language, pending);
  }
  return pending;
}

async function fetchTranslations(language: Language): Promise<Record<string, unknown>> {
  const response = await fetch(`/locales/${language}/translation.json`);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${language} translations`);
  return (await response.json()) as Record<string, unknown>;
}
