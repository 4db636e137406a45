import type { Request, Response } from 'express';

/** The route label of answers that matched nothing, whatever path was asked for. */
export const NOT_FOUND_ROUTE = 'not-found';
/** The route label of answers given before any route was chosen (405, 400). */
export const OTHER_ROUTE = 'other';

/** Names the route template an answer is counted under, for handlers Express does not route by template. */
export function setRouteLabel(res: Response, template: string): void {
  res.locals.routeTemplate = template;
}

/**
 * A label the code chose, never the request's path: a hostile URL must not mint a new series.
 * Express routes are labelled by their own template (`/locales/:lng/translation.json`).
 */
export function routeLabelOf(req: Request, res: Response): string {
  if (res.statusCode === 404) return NOT_FOUND_ROUTE;
  const chosen: unknown = res.locals.routeTemplate;
  if (typeof chosen === 'string') return chosen;
  const route = req.route as { path?: unknown } | undefined;
  if (typeof route?.path === 'string') return req.baseUrl + route.path;
  return OTHER_ROUTE;
}
