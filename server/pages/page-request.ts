import type { i18n as I18n } from 'i18next';
import { matchRoutes } from 'react-router-dom';
import type { BootstrapData } from '../../shared/bootstrap.ts';
import type { BroadcastMoment } from '../../shared/broadcast-texts.ts';
import { PAGE_PATHS, type PageKind } from '../../shared/routes.ts';
import type { ClientAssets } from '../static/client-assets.ts';

/** The pages' routes without their elements: matched as the browser's route tree matches them. */
const PAGE_ROUTES = Object.entries(PAGE_PATHS).map(([kind, path]) => ({ id: kind, path }));

/** The pages by their exact paths: most requests name one, and matching the tree costs its compilation each time. */
const PAGES_BY_PATH = new Map<string, PageKind>(
  Object.entries(PAGE_PATHS).map(([kind, path]) => [path, kind as PageKind]),
);

/** Which page a path shows. */
export function pageKindFor(pathname: string): PageKind {
  const exact = PAGES_BY_PATH.get(pathname);
  if (exact) return exact;
  const route = matchRoutes(PAGE_ROUTES, pathname)?.at(-1)?.route;
  return route ? (route.id as PageKind) : 'notFound';
}

export interface PageRequest {
  url: string;
  kind: PageKind;
  /** The moment of the day its texts of the broadcast speak of. */
  moment: BroadcastMoment;
  /** What the page shows, as the browser will read it back to hydrate. */
  bootstrap: BootstrapData;
  i18n: I18n;
  assets: ClientAssets;
  showErrorStack: boolean;
  /** Where visitors reach the site: the base of canonical, alternate and preview addresses. */
  publicOrigin: string;
}
