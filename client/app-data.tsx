import { createContext, useContext, type ReactNode } from 'react';
import type { PageAssets, PublicContent } from '../shared/content.ts';
import type { EventClock } from '../shared/event-clock.ts';

export interface AppData extends PageAssets {
  content: PublicContent;
  /**
   * The event's clock as the server rendered the page, which the browser's first render
   * repeats; null on pages that do not show it.
   */
  clock: EventClock | null;
}

const AppDataContext = createContext<AppData | null>(null);

export function AppDataProvider({ value, children }: { value: AppData; children: ReactNode }) {
  return <AppDataContext.Provider value={value}>{children}</AppDataContext.Provider>;
}

export function useAppData(): AppData {
  const data = useContext(AppDataContext);
  if (!data) throw new Error('useAppData outside AppDataProvider');
  return data;
}
