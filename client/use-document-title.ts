import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Keeps the tab title in the current language after client-side navigation or a language switch. */
export function useDocumentTitle(key: string): void {
  const { t } = useTranslation();
  const title = t(key);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
