import { effectiveStatus, type LiveState } from '../../shared/live-state.ts';
import { toZonedIsoString, zonedTimeToUtc } from '../content/event-time.ts';
import type { LiveRules } from '../content/live-rules.ts';

/**
 * What the page shows with a live state, as the log line that confirms a change names it: the
 * notice's level and languages, the status and the start and end the page states (the content
 * file's where the live state leaves them, on the event's wall clock, as the team writes them),
 * the stream the live state puts in place of the content file's, and the recording. Without the content file's
 * event (its file has problems), the live state's own status and no times.
 */
export function pageShows(state: LiveState, rules: LiveRules) {
  const { event } = rules;
  const planned = event ? zonedTimeToUtc(event.date, event.startTime, event.timeZone).getTime() : null;
  const plannedEnd = event ? zonedTimeToUtc(event.date, event.endTime, event.timeZone).getTime() : null;
  const onEventClock = (instant: number | null) =>
    event && instant !== null ? toZonedIsoString(new Date(instant), event.timeZone).slice(0, 16) : null;
  return {
    notice: state.notice?.level ?? null,
    noticeLanguages: state.notice ? Object.keys(state.notice.text) : [],
    status: event && planned !== null ? effectiveStatus(state, { status: event.status, start: planned }) : state.status,
    start: onEventClock(state.schedule?.start ?? planned),
    end: onEventClock(state.schedule?.end ?? plannedEnd),
    stream: state.stream?.embedUrl ?? null,
    recording: state.recording?.embedUrl ?? null,
  };
}
