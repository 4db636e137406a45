/**
 * Where the event stands at an instant: its phase, the countdown before it, the segment of its
 * programme on air, and when any of them next changes. One pure function of (now, start, end) and the event's status, so the server's
 * HTML and the browser's first render, given the same instant, say the same thing.
 */

/** The schema.org statuses of an event (the content file's `event.status`). */
export const EVENT_STATUSES = [
  'EventScheduled',
  'EventCancelled',
  'EventPostponed',
  'EventRescheduled',
  'EventMovedOnline',
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Before, during or after the broadcast's times. */
export type TimePhase = 'before' | 'live' | 'after';

/** Where the event stands: its time phase, or, for one that will not take place at its times, cancelled or postponed. */
export type EventPhase = TimePhase | 'cancelled' | 'postponed';

/** The event's start (inclusive) and end (exclusive of `live`), in ms since the epoch. */
export interface EventTimes {
  start: number;
  end: number;
  /** The starts of the programme's segments, in order, where it has one: the clock changes at each. */
  programme?: readonly { start: number }[];
}

/**
 * The time left before the start, at the granularity the page shows it:
 * - more than a day: whole days (the time left, less under one day, is not shown);
 * - more than an hour: hours and minutes, rounded up to the minute;
 * - an hour or less: minutes and seconds, rounded up to the second ("45 s" in the last minute);
 *   in the server's HTML, minutes (see PAGE_COUNTDOWN_STEP_MS).
 * Rounding up means the countdown never reads zero before the start, and reaches the start
 * exactly when its last step ("1 s") ends.
 */
export type Countdown =
  | { unit: 'days'; days: number }
  | { unit: 'minutes'; hours: number; minutes: number }
  | { unit: 'seconds'; minutes: number; seconds: number };

export interface EventClock {
  phase: EventPhase;
  /** Only before the start. */
  countdown: Countdown | null;
  /** While live, the index of the programme's segment on air, where one is. */
  segment?: number;
  /**
   * The first instant (ms) at which the phase, the countdown's text or the segment on air differs
   * from now's: the countdown's next step, the start, a segment's start, or the end. Null once the
   * event is over.
   */
  changesAt: number | null;
}

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The phases of an event that does not take place at its times: the clock stands still in them. */
const CALLED_OFF: Partial<Record<EventStatus, EventPhase>> = {
  EventCancelled: 'cancelled',
  EventPostponed: 'postponed',
};

export function eventPhase(now: number, { start, end }: EventTimes): TimePhase {
  if (now < start) return 'before';
  return now < end ? 'live' : 'after';
}

/**
 * The server's pages count down to the minute at the finest: in the last hour a page per
 * minute and variant instead of one per second. The browser counts the seconds once hydrated.
 */
export const PAGE_COUNTDOWN_STEP_MS = MINUTE_MS;

/**
 * The clock at `now`. `finestStep` is the countdown's step in the last hour, a second or a
 * minute: a second in the browser, a minute in the server's pages (`PAGE_COUNTDOWN_STEP_MS`).
 */
export function eventClock(now: number, times: EventTimes, finestStep: number = SECOND_MS): EventClock {
  const phase = eventPhase(now, times);
  if (phase === 'live') return { phase, countdown: null, ...onAir(now, times) };
  if (phase === 'after') return { phase, countdown: null, changesAt: null };

  const left = times.start - now;
  // Each range's step divides the next range's threshold, so a step never straddles two ranges.
  const step = left > DAY_MS ? DAY_MS : left > HOUR_MS ? MINUTE_MS : finestStep;
  const steps = Math.ceil(left / step);
  // The text stays the same until the time left drops to the next lower multiple of the step.
  const changesAt = times.start - (steps - 1) * step;
  if (step === DAY_MS) return { phase, countdown: { unit: 'days', days: steps - 1 }, changesAt };
  if (step === MINUTE_MS) {
    // "1 h 15 min", and in the server's last hour "45 min".
    return { phase, countdown: { unit: 'minutes', hours: Math.floor(steps / 60), minutes: steps % 60 }, changesAt };
  }
  return { phase, countdown: { unit: 'seconds', minutes: Math.floor(steps / 60), seconds: steps % 60 }, changesAt };
}

/** While live: the segment on air, if any, and when the next begins (else the end). */
function onAir(now: number, { end, programme = [] }: EventTimes): Pick<EventClock, 'segment' | 'changesAt'> {
  const next = programme.findIndex(({ start }) => start > now);
  const segment = (next === -1 ? programme.length : next) - 1;
  const changesAt = next === -1 ? end : Math.min(programme[next]!.start, end);
  return segment >= 0 ? { segment, changesAt } : { changesAt };
}

/**
 * The clock of an event with its status: a cancelled or postponed event has no countdown and
 * never goes live, and its clock never changes; any other runs on its times.
 */
export function eventClockWithStatus(
  now: number,
  event: EventTimes & { status: EventStatus },
  finestStep: number = SECOND_MS,
): EventClock {
  const calledOff = CALLED_OFF[event.status];
  return calledOff ? { phase: calledOff, countdown: null, changesAt: null } : eventClock(now, event, finestStep);
}

/** When the phase next changes: at the start, at the end, or never. */
export function phaseChangesAt(phase: EventPhase, { start, end }: EventTimes): number | null {
  return phase === 'before' ? start : phase === 'live' ? end : null;
}

/**
 * A name for the page the clock gives at this instant: equal for every instant that renders
 * the same phase and countdown, different as soon as either changes.
 */
export function clockStep(clock: EventClock): string {
  return `${clock.phase}:${clock.segment ?? ''}:${clock.changesAt ?? 'end'}`;
}

/** The translation keys and values of a countdown: "Starts in 2 h 15 min". */
export interface CountdownPart {
  key: 'countdown.days' | 'countdown.hours' | 'countdown.minutes' | 'countdown.seconds';
  count: number;
}

/** The parts a countdown is read as, largest first, leaving out zero parts below the first. */
export function countdownParts(countdown: Countdown): CountdownPart[] {
  switch (countdown.unit) {
    case 'days':
      return [{ key: 'countdown.days', count: countdown.days }];
    case 'minutes':
      return nonZero([
        { key: 'countdown.hours', count: countdown.hours },
        { key: 'countdown.minutes', count: countdown.minutes },
      ]);
    case 'seconds':
      return nonZero([
        { key: 'countdown.minutes', count: countdown.minutes },
        { key: 'countdown.seconds', count: countdown.seconds },
      ]);
  }
}

function nonZero(parts: CountdownPart[]): CountdownPart[] {
  const shown = parts.filter((part) => part.count > 0);
  return shown.length > 0 ? shown : parts.slice(-1);
}

/** The countdown as a sentence in the language `t` speaks, with its plural forms. */
export function countdownText(
  t: (key: string, options: Record<string, unknown>) => string,
  countdown: Countdown,
): string {
  const duration = countdownParts(countdown)
    .map(({ key, count }) => t(key, { count }))
    .join(' ');
  return t('countdown.startsIn', { duration });
}
