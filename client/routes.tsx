import type { RouteObject } from 'react-router-dom';
import { NOT_FOUND_PATH, PAGE_PATHS } from '../shared/routes.ts';
import { Impressum } from './pages/Impressum.tsx';
import { Landing } from './pages/Landing.tsx';
import { NotFound } from './pages/NotFound.tsx';

/** The one route tree, rendered by StaticRouter on the server and BrowserRouter in the browser. */
export const routes: RouteObject[] = [
  { path: PAGE_PATHS.landing, element: <Landing /> },
  { path: PAGE_PATHS.impressum, element: <Impressum /> },
  { path: NOT_FOUND_PATH, element: <NotFound /> },
];
