import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { useHydrationTracker, type Section } from '../hydration.tsx';

/**
 * A section the browser hydrates on its own, after the parts of the page around it: React
 * hydrates and commits each Suspense boundary separately, which splits the work of bringing
 * the page to life into short tasks instead of one long one. Nothing inside suspends, so the
 * server renders the section inline like any other.
 *
 * The page's hydration tracker counts the section as waiting from the commit around it until
 * its own content commits (rendered on the client, both happen in one commit, the content's
 * effect first, so it never waits).
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  const tracker = useHydrationTracker();
  const [section] = useState<Section>(() => ({ hydrated: false }));
  useEffect(() => tracker.wait(section), [tracker, section]);
  return (
    <Suspense fallback={null}>
      <Hydrated section={section}>{children}</Hydrated>
    </Suspense>
  );
}

function Hydrated({ section, children }: { section: Section; children: ReactNode }) {
  const tracker = useHydrationTracker();
  useEffect(() => tracker.hydrated(section), [tracker, section]);
  return children;
}
