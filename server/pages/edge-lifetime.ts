import { LANGUAGE_QUERY_PARAM } from '../../shared/languages.ts';
import { SECOND_MS } from '../../shared/event-clock.ts';

/**
 * How long a shared cache in front may keep a page: `limitSeconds` at most, and no longer than
 * to its next change (`changesAt`, the event clock's next step; null when the bytes do not change
 * with time), rounded down to whole seconds, yet one second in the last second before a change:
 * with none, a crowd would pass the edge for that whole second each step. The shipped caches end
 * such a copy at the second's end (nginx keys pages by the second; the VCL counts a page's
 * lifetime from its Date, the second the clock was read in), and the event's changes fall on
 * whole seconds, so none is shown past its change. 0 means not at all.
 */
export function edgeSeconds(now: number, changesAt: number | null, limitSeconds: number): number {
  if (changesAt === null || limitSeconds === 0) return limitSeconds;
  if (changesAt <= now) return 0;
  return Math.min(limitSeconds, Math.max(1, Math.floor((changesAt - now) / SECOND_MS)));
}

/** Whether the address names the language (`?lng=`, in any case): such answers are per visitor. */
export function namesLanguage(req: { query: Record<string, unknown> }): boolean {
  return Object.keys(req.query).some((name) => name.toLowerCase() === LANGUAGE_QUERY_PARAM.toLowerCase());
}

/**
 * The edge's lifetime of a page, for the edge only: `X-Accel-Expires` (nginx) and
 * `CDN-Cache-Control` (RFC 9213, managed CDNs and the shipped VCL). Browsers keep following
 * `Cache-Control`. Must come before `Cache-Control` in the answer: nginx 1.22 ignores
 * `X-Accel-Expires` that comes after `Cache-Control: private`.
 */
export function edgeHeaders(seconds: number): [string, string][] {
  if (seconds <= 0) return [];
  return [
    ['X-Accel-Expires', String(seconds)],
    ['CDN-Cache-Control', `max-age=${seconds}`],
  ];
}
