import { Suspense, type ReactNode } from 'react';

/**
 * A section the browser hydrates on its own, after the parts of the page around it: React
 * hydrates and commits each Suspense boundary separately, which splits the work of bringing
 * the page to life into short tasks instead of one long one. Nothing inside suspends, so the
 * server renders the section inline like any other.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
