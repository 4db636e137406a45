/**
 * The pages and the paths they answer at: the browser's route tree is built on them, and the
 * server's page handler, metrics and search-engine addresses read them.
 */
export const PAGE_PATHS = { landing: '/', impressum: '/impressum' } as const;

/** The route of every other path: the 404 page. */
export const NOT_FOUND_PATH = '*';

export type PageKind = keyof typeof PAGE_PATHS | 'notFound';
