import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** A section that hydrates on its own (HydrateLater), and whether its content has committed. */
export interface Section {
  hydrated: boolean;
}

/**
 * Keeps count of the sections whose server HTML React has not hydrated yet. Until none is left,
 * nothing those sections read may change: i18next's language lives outside React, so a switch
 * made earlier has a waiting section render other text than the server sent, and React throws
 * the section's HTML away and builds it again.
 */
export class HydrationTracker {
  #shellCommitted = false;
  readonly #pending = new Set<Section>();
  #waiting: (() => void)[] = [];

  /** The page around the sections has committed: every section not hydrated by then has said so. */
  shellCommitted(): void {
    this.#shellCommitted = true;
    this.#settle();
  }

  /** Counts a section as waiting until it hydrates; the returned function stops counting it (on unmount). */
  wait(section: Section): () => void {
    if (!section.hydrated) this.#pending.add(section);
    return () => this.#release(section);
  }

  hydrated(section: Section): void {
    section.hydrated = true;
    this.#release(section);
  }

  #release(section: Section): void {
    this.#pending.delete(section);
    this.#settle();
  }

  /** Resolves once the page and every section in it have hydrated. */
  whenHydrated(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#settle();
    });
  }

  #settle(): void {
    if (!this.#shellCommitted || this.#pending.size > 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}

const HydrationContext = createContext<HydrationTracker | null>(null);

export function useHydrationTracker(): HydrationTracker {
  const tracker = useContext(HydrationContext);
  if (!tracker) throw new Error('useHydrationTracker outside HydrationProvider');
  return tracker;
}

/**
 * Wraps the whole page. Effects run children first, so when this one runs, every section of
 * the first commit has already said whether it still waits.
 */
export function HydrationProvider({ children }: { children: ReactNode }) {
  const [tracker] = useState(() => new HydrationTracker());
  useEffect(() => tracker.shellCommitted(), [tracker]);
  return <HydrationContext.Provider value={tracker}>{children}</HydrationContext.Provider>;
}
