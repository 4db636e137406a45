import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { pageKindFor } from '../../server/pages/page-request.ts';
import { PAGE_PATHS } from '../../shared/routes.ts';

describe('pageKindFor', () => {
  const routes = Object.entries(PAGE_PATHS).map(([id, path]) => ({ id, path }));
  const asTheRouteTree = (path: string) => matchRoutes(routes, path)?.at(-1)?.route.id ?? 'notFound';

  it('names the page of each path as the browser’s route tree does, exact paths and others', () => {
    const paths = [
      '/',
      '/impressum',
      '/Impressum',
      '/impressum/',
      '/IMPRESSUM/',
      '//',
      '/impressum/x',
      '/x',
      '/index.html',
    ];
    for (const path of paths) expect({ path, kind: pageKindFor(path) }).toEqual({ path, kind: asTheRouteTree(path) });
    expect(pageKindFor('/')).toBe('landing');
    expect(pageKindFor('/impressum/')).toBe('impressum');
    expect(pageKindFor('/nothing')).toBe('notFound');
  });
});
