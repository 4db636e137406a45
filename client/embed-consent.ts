import { useSyncExternalStore } from 'react';
import { ALWAYS_LOAD_STORAGE_KEY } from '../shared/embeds.ts';

/**
 * Which frame providers the visitor let load: for this visit (in memory, by clicking a
 * placeholder's button) and for later visits (localStorage, only where they ticked "always
 * load"). Nothing is written before such a choice, and withdrawing it forgets both.
 */

const allowedThisVisit = new Set<string>();
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The providers kept in this browser; none where storage is unreadable or holds something else. */
export function rememberedProviders(): string[] {
  try {
    const list: unknown = JSON.parse(window.localStorage.getItem(ALWAYS_LOAD_STORAGE_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

/** Writes the list of providers kept in this browser, or removes the entry when none is left. */
function keep(names: string[]): void {
  try {
    if (names.length > 0) window.localStorage.setItem(ALWAYS_LOAD_STORAGE_KEY, JSON.stringify(names));
    else window.localStorage.removeItem(ALWAYS_LOAD_STORAGE_KEY);
  } catch {
    // Storage refused (a private window's quota): the choice holds for this visit.
  }
}

/** Lets the provider's frames load for the rest of the visit, and on later visits when `remember`. */
export function allowProvider(name: string, { remember }: { remember: boolean }): void {
  allowedThisVisit.add(name);
  if (remember) keep([...new Set([...rememberedProviders(), name])]);
  notify();
}

/**
 * "Always load" ticked or unticked once the provider's frame is there: keeps the choice for later
 * visits or forgets it. Either way the frame stays for this visit, so nothing moves.
 */
export function rememberProvider(name: string, remember: boolean): void {
  allowedThisVisit.add(name);
  const others = rememberedProviders().filter((kept) => kept !== name);
  keep(remember ? [...others, name] : others);
  notify();
}

/** Withdraws every choice: the remembered one and this visit's. */
export function forgetProviders(): void {
  allowedThisVisit.clear();
  try {
    window.localStorage.removeItem(ALWAYS_LOAD_STORAGE_KEY);
  } catch {
    // Nothing could have been stored either.
  }
  notify();
}

/** Whether the provider's frames may load; false on the server and while hydrating. */
export function useProviderAllowed(name: string): boolean {
  return useSyncExternalStore(
    subscribe,
    () => allowedThisVisit.has(name) || rememberedProviders().includes(name),
    () => false,
  );
}

/** Whether the visitor chose to always load the provider's frames; false on the server and while hydrating. */
export function useProviderRemembered(name: string): boolean {
  return useSyncExternalStore(
    subscribe,
    () => rememberedProviders().includes(name),
    () => false,
  );
}

/** Whether any choice is kept in this browser; false on the server and while hydrating. */
export function useAnyProviderRemembered(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => rememberedProviders().length > 0,
    () => false,
  );
}
