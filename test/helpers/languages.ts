import { readFileSync } from 'node:fs';
import { readLanguages } from '../../server/content/languages.ts';
import { DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';
import type { Language, LanguageInfo } from '../../shared/languages.ts';

/** The shipped sample's languages; the content file lists them (test/pages/languages.test.ts holds it to that). */
export type SampleLanguage = 'de' | 'en' | 'es';

/** The languages the shipped content file offers, the default first. */
export const LANGUAGES = (JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as { languages: SampleLanguage[] })
  .languages as readonly SampleLanguage[];

/** Each shipped language as its locale file describes it. */
export const LANGUAGE_INFO: Readonly<Record<Language, LanguageInfo>> = Object.fromEntries(
  readLanguages(LOCALES_DIR, LANGUAGES).languages.map((info) => [info.code, info]),
);

/** A shipped language's locale ("de-AT"). */
export const localeOf = (language: Language): string => LANGUAGE_INFO[language]!.locale;
