import type { InitOptions } from 'i18next';

export const NAMESPACE = 'translation';

/** Options both sides share: a missing key shows the key itself, never another language. */
export const I18N_OPTIONS = {
  fallbackLng: false,
  ns: [NAMESPACE],
  defaultNS: NAMESPACE,
  initAsync: false,
  // React escapes what it renders; escaping here too would show "&amp;".
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  returnNull: false,
} satisfies InitOptions;
