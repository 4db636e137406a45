import type { i18n as I18n } from 'i18next';
import { matchRoutes } from 'react-router-dom';
import type { AppData } from '../../client/app-data.tsx';
import { NOT_FOUND_PATH, routes } from '../../client/routes.tsx';
import type { Language } from '../../shared/languages.ts';
import type { EventFacts } from '../content/site-content.ts';
import type { ClientAssets } from '../static/client-assets.ts';

export type PageKind = 'landing' | 'impressum' | 'notFound';

/** Which page a path shows, by the same route tree the browser uses. */
export function pageKindFor(pathname: string): PageKind {
  const route = matchRoutes(routes, pathname)?.at(-1)?.route;
  if (!route || route.path === NOT_FOUND_PATH) return 'notFound';
  return route.path === '/impressum' ? 'impressum' : 'landing';
}

export interface PageRequest {
  url: string;
  kind: PageKind;
  language: Language;
  languageChosen: boolean;
  data: AppData;
  i18n: I18n;
  translations: Record<string, unknown>;
  assets: ClientAssets;
  showErrorStack: boolean;
  /** Where visitors reach the site: the base of canonical, alternate and preview addresses. */
  publicOrigin: string;
  event: EventFacts;
}
