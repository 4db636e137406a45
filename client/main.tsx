/**
 * The app module: the starter imports it once the first paint is reported, and it hydrates the
 * page. In a task of its own: evaluating the bundle and starting the app are two shorter tasks
 * instead of one long one, with the main thread free in between.
 */
import { boot } from './boot.tsx';

setTimeout(() => boot());
