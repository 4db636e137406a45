/** The app module: the starter imports it once the first paint is reported, and it hydrates the page. */
import { boot } from './boot.tsx';

boot();
