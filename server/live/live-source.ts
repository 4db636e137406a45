import type { LiveState } from '../../shared/live-state.ts';

/**
 * Where the live state comes from: the live file (file-source.ts), or with a backend configured
 * its row (backend-source.ts). Whatever the source, a page and /api/live get the last good state: a bad change is
 * refused by the source and never reaches them.
 */
export interface LiveSource {
  /** The live state now. */
  get(): Promise<LiveState>;
  /** What get() answers, when it is at hand without waiting for the backend; else null. */
  current(): LiveState | null;
  /** Stops following changes. */
  close(): void;
}

/** Told about every change a source refused, so that refusals are counted (the metrics' observer). */
export interface LiveObserver {
  refused(source: LiveSourceName): void;
}

export type LiveSourceName = 'file' | 'backend';

export const ignoreLiveEvents: LiveObserver = { refused() {} };
