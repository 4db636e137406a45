import type { LiveState } from '../../shared/live-state.ts';

export interface LivePollOptions {
  /** The longest wait between two asks; each wait is shortened at random by up to half. */
  intervalMs: number;
  /** Asks for the state: null (or a rejection) when there is nothing new or the ask failed. */
  ask: () => Promise<LiveState | null>;
  /** Shows a state newer than the one shown. */
  apply: (state: LiveState) => void;
  /** Whether the tab is shown, and when that changes. */
  page?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  random?: () => number;
}

/** The most a tab shown again waits after the last ask: its visitor may switch tabs back and forth. */
const SHOWN_AGAIN_GAP_MS = 5000;

/**
 * Keeps asking for the live state while the tab is shown, and applies each state newer than the
 * one shown. Waits are jittered so that tabs opened together (a newsletter's link) spread their
 * asks. A hidden tab does not ask at all, and one shown again asks at once (no sooner after the
 * last ask than a tick could come). A failed ask changes nothing: the next tick asks again.
 * Returns the function that stops it.
 */
export function followLiveState(shown: LiveState, options: LivePollOptions): () => void {
  const { intervalMs, ask, apply, page = document, random = Math.random } = options;
  const gapMs = Math.min(SHOWN_AGAIN_GAP_MS, intervalMs / 2);
  let current = shown;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asking = false;
  let stopped = false;
  // The state the page came with counts as the first answer.
  let askedAt = Date.now();

  const hidden = () => page.visibilityState === 'hidden';
  const askIn = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void askNow(), ms);
  };
  const nextTick = () => askIn(intervalMs * (0.5 + random() / 2));
  const askNow = async () => {
    if (asking || stopped || hidden()) return;
    asking = true;
    askedAt = Date.now();
    const answer = await ask().catch(() => null);
    asking = false;
    if (stopped) return;
    if (answer && isNewer(answer, current)) {
      current = answer;
      apply(answer);
    }
    if (!hidden()) nextTick();
  };
  const onVisibilityChange = () => {
    if (hidden()) clearTimeout(timer);
    else if (!asking) askIn(Math.max(0, askedAt + gapMs - Date.now()));
  };

  page.addEventListener('visibilitychange', onVisibilityChange);
  if (!hidden()) nextTick();
  return () => {
    stopped = true;
    clearTimeout(timer);
    page.removeEventListener('visibilitychange', onVisibilityChange);
  };
}

/**
 * Whether `answer` should replace `shown`: another state, and not an older one. A replica or a
 * cache that has not caught up yet may answer the state before the one shown.
 */
export function isNewer(answer: LiveState, shown: LiveState): boolean {
  return answer.version !== shown.version && Date.parse(answer.updated) >= Date.parse(shown.updated);
}
