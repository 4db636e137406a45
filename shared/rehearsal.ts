/**
 * A rehearsal: a run whose event clock reads another time than the real one (REHEARSAL_CLOCK),
 * so the event team can watch the countdown, "Live now" and the end on their own content before
 * the day. Only the event's clock moves: caches, logs, metrics and the live state's polling keep
 * to the real clock.
 */
export interface Rehearsal {
  /** How far the event clock is ahead of the real one (ms; behind when negative), fixed at start. */
  shiftMs: number;
  /** What the event clock read when the server started, on the event's wall clock: "2027-03-18 17:55". */
  clockAtStart: string;
  /** The event's IANA time zone, which `clockAtStart` is given in. */
  timeZone: string;
}

/** The event clock's reading (ms since the epoch): the real clock moved by a rehearsal's shift, if any. */
export function eventNow(shiftMs = 0, realNow: number = Date.now()): number {
  return realNow + shiftMs;
}
