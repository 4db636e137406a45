import type { Problem } from './types.ts';

/**
 * Records, from the first moment of every top-level document, what the visitor's console would
 * show: blocked loads (CSP) always; with `everything`, also console errors and warnings,
 * uncaught errors and rejections, and resources that failed to load. An engine whose driver
 * reports the console itself (Chromium, Firefox) asks for the blocked loads only; WebKit's
 * WebDriver has no console, so there the probe is the console. What it saw is kept in the
 * tab's session storage (`__problems`), which outlives each document; the key is written out in
 * both functions, which are sent to the page as source text.
 */
export function problemProbe(everything: boolean): void {
  if (window !== window.top) return; // the video and map frames
  const record = (kind: Problem['kind'], text: string, url: string) => {
    const seen = JSON.parse(sessionStorage.getItem('__problems') ?? '[]') as Problem[];
    seen.push({ kind, text, url });
    sessionStorage.setItem('__problems', JSON.stringify(seen));
  };
  document.addEventListener('securitypolicyviolation', (event) =>
    record('csp', event.effectiveDirective, event.blockedURI),
  );
  if (!everything) return;
  const describe = (value: unknown) =>
    value instanceof Error ? `${value.name}: ${value.message}` : typeof value === 'string' ? value : String(value);
  for (const [method, kind] of [
    ['error', 'error'],
    ['warn', 'warning'],
  ] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      record(kind, args.map(describe).join(' '), location.href);
      original(...args);
    };
  }
  window.addEventListener(
    'error',
    (event: Event) => {
      if (event instanceof ErrorEvent) record('uncaught', describe(event.error ?? event.message), event.filename);
      else {
        const element = event.target as HTMLElement & { src?: string; href?: string };
        record('error', `${element.tagName.toLowerCase()} failed to load`, element.src || element.href || '');
      }
    },
    true,
  );
  window.addEventListener('unhandledrejection', (event) => record('uncaught', describe(event.reason), location.href));
}

/** Reads what the probe recorded in the page's session storage. */
export function recordedProblems(): Problem[] {
  return JSON.parse(sessionStorage.getItem('__problems') ?? '[]') as Problem[];
}
