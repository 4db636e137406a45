import { useEffect, useState } from 'react';
import type { LiveState } from '../../shared/live-state.ts';
import { useHydrationTracker } from '../hydration.tsx';
import { liveStateAsker } from './live-answer.ts';
import { followLiveState } from './poll-live-state.ts';

/**
 * The live state the page shows: the one it was rendered with, then each newer one the server
 * answers, asked for every `pollSeconds` at most (none: the page keeps the one it has). It starts
 * once every section has hydrated: a section still waiting must render what the server sent.
 */
export function useLiveState(rendered: LiveState, pollSeconds: number | undefined): LiveState {
  const [live, setLive] = useState(rendered);
  const hydration = useHydrationTracker();
  useEffect(() => {
    if (pollSeconds === undefined) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void hydration.whenHydrated().then(() => {
      if (cancelled) return;
      stop = followLiveState(rendered, { intervalMs: pollSeconds * 1000, ask: liveStateAsker(), apply: setLive });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [hydration, rendered, pollSeconds]);
  return live;
}
