import path from 'node:path';
import i18next, { type i18n as I18n } from 'i18next';
import Backend from 'i18next-fs-backend';
import type { Language } from '../../shared/languages.ts';
import { I18N_OPTIONS, NAMESPACE } from '../../shared/i18n-options.ts';

export interface Translations {
  /** The offered languages' codes, the default first. */
  languages: readonly Language[];
  /** A fresh i18next instance fixed to one language, for one request's render. */
  forRequest(language: Language): I18n;
  /** The dictionary of one language, as the browser receives it for hydration. */
  resources(language: Language): Record<string, unknown>;
  /** The locale file's body as served at /locales/<lng>/translation.json. */
  file(language: Language): string;
}

/**
 * Loads every language's translations once, at start. Requests never share an
 * instance: each gets a clone that shares the loaded dictionaries but has its own
 * language, so concurrent renders in different languages cannot see each other's.
 */
export async function loadTranslations(localesDir: string, languages: readonly Language[]): Promise<Translations> {
  const base = i18next.createInstance();
  await base.use(Backend).init({
    ...I18N_OPTIONS,
    supportedLngs: [...languages],
    lng: languages[0],
    preload: [...languages],
    backend: { loadPath: path.join(localesDir, '{{lng}}/{{ns}}.json') },
  });

  const files = new Map<Language, string>();
  for (const language of languages) {
    const bundle = base.getResourceBundle(language, NAMESPACE) as Record<string, unknown> | undefined;
    // i18next-fs-backend reports a missing or broken file only as a missing bundle.
    if (!bundle || Object.keys(bundle).length === 0) {
      throw new Error(`Translations for "${language}" are missing or empty in ${localesDir}`);
    }
    files.set(language, JSON.stringify(bundle));
  }

  return {
    languages,
    forRequest: (language) => base.cloneInstance({ lng: language, initAsync: false }),
    resources: (language) => base.getResourceBundle(language, NAMESPACE) as Record<string, unknown>,
    file: (language) => files.get(language)!,
  };
}
