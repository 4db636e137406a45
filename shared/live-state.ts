import { broadcastMoment, type BroadcastMoment } from './broadcast-texts.ts';
import type { EventPhase, EventStatus } from './event-clock.ts';
import { inLanguage, type Language } from './languages.ts';
import type { EventDisplay, PublicContent, PublicEvent, PublicRecording, PublicVideo } from './page-data.ts';

/**
 * What the event team can change while the server runs (the live file, or a backend's row): a
 * notice shown at the top of every page, the event's status in place of the content file's, and
 * its times on the day (a delay, a longer broadcast, an early end). Both sides speak of it: the
 * server renders it, the page carries it to hydrate.
 */

/** How a notice is shown: information, or a warning that stands out. */
export const NOTICE_LEVELS = ['info', 'warning'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

export interface LiveNotice {
  level: NoticeLevel;
  /** The notice per offered language; the default language's always among them. */
  text: Record<Language, string>;
}

/**
 * The day's times where the live state moves them: the content file's plan stays, and these stand
 * in for it. Formed by the server, which alone formats dates in every language alike.
 */
export interface LiveSchedule {
  /** Start and end, ms since the epoch. */
  start: number;
  end: number;
  /** The event zone's offset from UTC at the start and at the end, minutes east (as PublicEvent's). */
  utcOffsetMinutes: { start: number; end: number };
  /** The date and times as the hero and the stream's section show them, per offered language. */
  display: Record<Language, EventDisplay>;
}

export interface LiveState {
  /** A name for this state: the same for the same notice and status on every replica, another for any change. */
  version: string;
  /**
   * When the source last changed (ISO 8601): for the live file, its modification time as read;
   * for the backend's row, its `updated_at`.
   * It orders states that `version` cannot: an open page never takes a state older than the one
   * it shows, as a lagging replica or cache may answer.
   */
  updated: string;
  notice: LiveNotice | null;
  /** The event's status in place of the content file's; null: the content file's stands (see effectiveStatus). */
  status: EventStatus | null;
  /** The day's times in place of the content file's; null: the content file's stand. */
  schedule: LiveSchedule | null;
  /** A backup stream in place of the content file's video, formed as that is; null: the content file's stands. */
  stream: PublicVideo | null;
  /**
   * The broadcast's recording once the event team names it, shown after the end; null: none yet.
   * Absent from the live state of a replica of the release before recordings (a rolling update).
   */
  recording?: PublicRecording | null;
}

/**
 * The notice's text for a page in `language`, and the language it is written in. A language
 * the notice does not cover gets the default language's text: a notice in German beats none
 * (docs/decisions.md names this departure).
 */
export function noticeFor(
  notice: LiveNotice,
  language: Language,
  defaultLanguage: Language,
): { text: string; language: Language } {
  const own = notice.text[language];
  if (own !== undefined) return { text: own, language };
  return { text: notice.text[defaultLanguage] ?? '', language: defaultLanguage };
}

/** The stream the page shows: the live state's backup when it names one, else the content file's video. */
export function effectiveVideo(live: Pick<LiveState, 'stream'>, contentVideo: PublicVideo): PublicVideo {
  return live.stream ?? contentVideo;
}

/** Statuses of an event that takes place at its times: a moved start makes them EventRescheduled. */
const TAKING_PLACE: readonly EventStatus[] = ['EventScheduled', 'EventRescheduled', 'EventMovedOnline'];

/**
 * The status the page states: the live state's when it gives one; else, where the live state
 * moves the start of an event that takes place, EventRescheduled; else the content file's.
 */
export function effectiveStatus(
  live: Pick<LiveState, 'status' | 'schedule'>,
  planned: { status: EventStatus; start: number },
): EventStatus {
  if (live.status) return live.status;
  if (startMoved(live, planned) && TAKING_PLACE.includes(planned.status)) return 'EventRescheduled';
  return planned.status;
}

/** The recording the page offers after the end: the live state's, else the one the content file names ahead. */
export function effectiveRecording(
  live: Pick<LiveState, 'recording'>,
  content: Pick<PublicContent, 'recording'>,
): PublicRecording | null {
  return live.recording ?? content.recording;
}

/** The moment of the day the page's texts speak of: the phase, with the live state's moved start and the recording. */
export function momentWithLive(
  phase: EventPhase,
  live: Pick<LiveState, 'schedule' | 'recording'>,
  content: Pick<PublicContent, 'event' | 'recording' | 'recordingPlanned'>,
): BroadcastMoment {
  const recording = effectiveRecording(live, content) ? 'named' : content.recordingPlanned ? 'planned' : null;
  return broadcastMoment(phase, startMoved(live, content.event), recording);
}

/** Whether the live state moves the start away from the content file's. */
export function startMoved(live: Pick<LiveState, 'schedule'>, planned: { start: number }): boolean {
  return live.schedule !== null && live.schedule.start !== planned.start;
}

/** The event as the page shows it now: the content file's, with the live state's times and status. */
export function eventWithLive(event: PublicEvent, live: Pick<LiveState, 'status' | 'schedule'>): PublicEvent {
  const status = effectiveStatus(live, event);
  if (!live.schedule) return { ...event, status };
  const { start, end, utcOffsetMinutes } = live.schedule;
  // A delay moves every segment alike; the end cuts the programme wherever it falls.
  const programme = event.programme.map((segment) => ({ ...segment, start: segment.start + start - event.start }));
  return { ...event, start, end, utcOffsetMinutes, programme, status };
}

/** The date and times a page in `language` shows: the live state's where it moves them. */
export function eventDisplayWithLive(
  content: Pick<PublicContent, 'eventDisplay'>,
  live: Pick<LiveState, 'schedule'>,
  language: Language,
): EventDisplay {
  return inLanguage(live.schedule?.display ?? content.eventDisplay, language);
}
