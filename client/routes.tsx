import type { RouteObject } from 'react-router-dom';
import { Impressum } from './pages/Impressum.tsx';
import { Landing } from './pages/Landing.tsx';
import { NotFound } from './pages/NotFound.tsx';

/** The one route tree, rendered by StaticRouter on the server and BrowserRouter in the browser. */
export const routes: RouteObject[] = [
  { path: '/', element: <Landing /> },
  { path: '/impressum', element: <Impressum /> },
  { path: '*', element: <NotFound /> },
];

export const NOT_FOUND_PATH = '*';
