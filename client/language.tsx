import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { languageCookie } from '../shared/language-cookie.ts';
import {
  LANGUAGE_QUERY_PARAM,
  LANGUAGE_STORAGE_KEY,
  isOffered,
  languageInfo,
  type Language,
  type LanguageInfo,
} from '../shared/languages.ts';
import { useAppData } from './app-data.tsx';
import { OVERLAY_CLOSE_DELAY_MS } from '../shared/timing.ts';
import { useHydrationTracker } from './hydration.tsx';
import { ensureTranslations } from './translations.ts';
import { whenIdle } from './when-idle.ts';

export interface LanguageState {
  language: Language;
  /** The offered languages, in the pickers' order. */
  languages: readonly LanguageInfo[];
  /** The current language's name, locale, direction and flag. */
  info: LanguageInfo;
  /** Whether a language has been chosen; the overlay shows while not. */
  chosen: boolean;
  /** The entry just picked, highlighted until it is applied. */
  pending: Language | null;
  choose(language: Language): void;
  /** Starts loading a language's file early (on hover or focus of its link). */
  prefetch(language: Language): void;
}

const LanguageContext = createContext<LanguageState | null>(null);

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage outside LanguageProvider');
  return state;
}

interface Props {
  initialLanguage: Language;
  initialChosen: boolean;
  children: ReactNode;
}

export function LanguageProvider({ initialLanguage, initialChosen, children }: Props) {
  const { i18n } = useTranslation();
  const { languages } = useAppData().content;
  const navigate = useNavigate();
  const location = useLocation();
  const [current, setCurrent] = useState({ language: initialLanguage, chosen: initialChosen });
  const [pending, setPending] = useState<Language | null>(null);
  const latestChoice = useRef(0);
  const hydration = useHydrationTracker();

  const apply = useCallback(
    async (language: Language) => {
      await i18n.changeLanguage(language);
      remember(language);
      setCurrent({ language, chosen: true });
      setPending(null);
    },
    [i18n],
  );

  /**
   * Switches once the language's file is in and the whole page has hydrated (see HydrationTracker),
   * unless another choice came meanwhile.
   */
  const switchWhenReady = useCallback(
    (language: Language, ...alsoAwait: Promise<unknown>[]) => {
      const choice = ++latestChoice.current;
      void Promise.all([ensureTranslations(i18n, language), hydration.whenHydrated(), ...alsoAwait]).then(() => {
        if (choice === latestChoice.current) return apply(language);
      });
    },
    [i18n, hydration, apply],
  );

  const choose = useCallback(
    (language: Language) => {
      setPending(language);
      switchWhenReady(language, new Promise((resolve) => setTimeout(resolve, OVERLAY_CLOSE_DELAY_MS)));
    },
    [switchWhenReady],
  );

  const prefetch = useCallback((language: Language) => void ensureTranslations(i18n, language), [i18n]);

  // A choice stored in this browser counts as chosen even when the cookie is gone. The browser's
  // storage costs its opening on first use (tens of ms on a slow phone), so it waits for an idle
  // moment instead of lengthening the tasks that hydrate the page.
  useEffect(
    () =>
      whenIdle(() => {
        if (initialChosen) return remember(initialLanguage);
        const stored = readStoredLanguage(languages);
        if (stored) switchWhenReady(stored);
      }),
    // Only on the first render: later changes come through choose().
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const info = languageInfo(languages, current.language);
  // In the same commit as the texts, before the browser paints them: a passive effect runs after
  // the paint, in WebKit a quarter of a second later, and meanwhile the new texts would be shown
  // (and read out) under the old language and direction.
  useLayoutEffect(() => {
    document.documentElement.lang = current.language;
    document.documentElement.dir = info.dir;
  }, [current.language, info.dir]);

  // A ?lng= link has done its work once the choice is stored: drop it so a reload keeps the newer choice.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!current.chosen || !params.has(LANGUAGE_QUERY_PARAM) || params.get(LANGUAGE_QUERY_PARAM) === current.language)
      return;
    params.delete(LANGUAGE_QUERY_PARAM);
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
  }, [current, location, navigate]);

  return (
    <LanguageContext.Provider value={{ ...current, languages, info, pending, choose, prefetch }}>
      {children}
    </LanguageContext.Provider>
  );
}

function readStoredLanguage(languages: readonly LanguageInfo[]): Language | null {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isOffered(languages, stored) ? stored : null;
  } catch {
    return null;
  }
}

/** Keeps the choice for this browser (localStorage) and for the server (cookie). */
function remember(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage can be unavailable (private mode, quota); the cookie still carries the choice.
  }
  document.cookie = languageCookie(language, window.location.protocol === 'https:');
}
