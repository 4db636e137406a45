import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { PublicEvent } from '../shared/page-data.ts';
import {
  eventClockWithStatus,
  HOUR_MS,
  type EventClock,
  type EventStatus,
  type EventTimes,
} from '../shared/event-clock.ts';
import type { BroadcastMoment } from '../shared/broadcast-texts.ts';
import { eventWithLive, momentWithLive } from '../shared/live-state.ts';
import { eventNow } from '../shared/rehearsal.ts';
import { useAppData } from './app-data.tsx';
import { onEventWallClock } from './visitor-time.ts';
import { whenIdle } from './when-idle.ts';

/**
 * The page's event as every section shows it: the content file's, with the live state's times
 * and status where it gives them.
 */
export function usePageEvent(): PublicEvent {
  const { content, live } = useAppData();
  const { schedule, status } = live;
  return useMemo(() => eventWithLive(content.event, { schedule, status }), [content.event, schedule, status]);
}

/** The clock of the page's event (usePageEvent), starting from the clock the server rendered. */
export function usePageEventClock(): EventClock {
  const { clock, rehearsal } = useAppData();
  return useEventClock(usePageEvent(), clock, rehearsal?.shiftMs);
}

/** The moment of the day the page's texts of the broadcast speak of (shared/broadcast-texts.ts). */
export function useBroadcastMoment(): BroadcastMoment {
  const { content, live } = useAppData();
  return momentWithLive(usePageEventClock().phase, live, content);
}

/** Timers are re-armed at least this often, so a computer woken from sleep catches up soon. */
const LONGEST_WAIT_MS = HOUR_MS;

/**
 * The event's clock on the visitor's clock. The first render repeats `rendered`, the clock
 * the server's HTML shows, so hydration matches whatever the visitor's clock says; right
 * after, it follows the visitor's clock, re-rendering exactly when the phase, the countdown's
 * text or the programme's segment on air changes (every second in the last hour, every minute
 * or day before, at each segment's start).
 * A cancelled or postponed event's clock stands still.
 */
export function useEventClock(
  event: EventTimes & { status: EventStatus },
  rendered: EventClock | null,
  /** A rehearsal's shift of the event clock (ms). */
  shiftMs = 0,
): EventClock {
  const { start, end, status, programme } = event;
  const [clock, setClock] = useState(
    () => rendered ?? eventClockWithStatus(eventNow(shiftMs), { start, end, status, programme }),
  );

  // A layout effect: after a client-side navigation the stale clock is never painted.
  useLayoutEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      clearTimeout(timer);
      const now = eventNow(shiftMs);
      const next = eventClockWithStatus(now, { start, end, status, programme });
      setClock((shown) => (sameClock(shown, next) ? shown : next));
      if (next.changesAt !== null) {
        timer = setTimeout(update, Math.min(Math.max(next.changesAt - now, 1), LONGEST_WAIT_MS));
      }
    };
    update();
    // A hidden tab's timers are throttled: catch up the moment it shows again.
    document.addEventListener('visibilitychange', update);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', update);
    };
  }, [start, end, status, programme, shiftMs]);

  return clock;
}

/** Whether two clocks read alike: with the event's times moved, the same next change may come with another countdown. */
function sameClock(a: EventClock, b: EventClock): boolean {
  return (
    a.phase === b.phase &&
    a.segment === b.segment &&
    a.changesAt === b.changesAt &&
    JSON.stringify(a.countdown) === JSON.stringify(b.countdown)
  );
}

/**
 * The visitor's IANA time zone where their clock shows the event's times otherwise than the
 * event's zone does; null where it shows them alike, on the server, during hydration and while
 * the page is not `shown` (under the first visit's overlay). Asking Intl costs its set-up (some
 * 20 ms on a phone's main thread, four times that on a slow one), so it waits for an idle moment
 * after hydration, in a task of its own, and the times are formatted in the render that follows.
 */
export function useVisitorTimeZone(event: PublicEvent, shown: boolean): string | null {
  const [zone, setZone] = useState<string | null>(null);
  const applies = shown && !onEventWallClock(event);
  useEffect(() => {
    if (applies) return whenIdle(() => setZone(visitorTimeZone()));
  }, [applies]);
  return applies ? zone : null;
}

function visitorTimeZone(): string | null {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;
}
