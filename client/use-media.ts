import { useEffect, useState } from 'react';

/** Whether the visitor asked for reduced motion; false on the server and until hydrated. */
export function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setReduced(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return reduced;
}

/** Whether the tab is hidden; false on the server and until hydrated. */
export function usePageHidden(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const update = () => setHidden(document.visibilityState === 'hidden');
    update();
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return hidden;
}

/** True once the component has hydrated in the browser. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the second render after hydration is the point
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Whether the visitor asked to spare data: the browser's Save-Data setting, or
 * `prefers-reduced-data` where a browser has it; false on the server and until hydrated.
 * Decided here, not on the server, so that one page serves every visitor from the edge's cache.
 */
export function useReducedData(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const saveData = (navigator as { connection?: { saveData?: boolean } }).connection?.saveData === true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- known only in the browser
    setReduced(saveData || window.matchMedia('(prefers-reduced-data: reduce)').matches);
  }, []);
  return reduced;
}
