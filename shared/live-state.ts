import type { EventStatus } from './event-clock.ts';
import type { Language } from './languages.ts';
import type { PublicVideo } from './page-data.ts';

/**
 * What the event team can change while the server runs (the live file, later also a backend's
 * row): a notice shown at the top of every page, and the event's status in place of the content
 * file's. Both sides speak of it: the server renders it, the page carries it to hydrate.
 */

/** How a notice is shown: information, or a warning that stands out. */
export const NOTICE_LEVELS = ['info', 'warning'] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

export interface LiveNotice {
  level: NoticeLevel;
  /** The notice per offered language; the default language's always among them. */
  text: Record<Language, string>;
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
  /** The event's status in place of the content file's; null: the content file's stands. */
  status: EventStatus | null;
  /** A backup stream in place of the content file's video, formed as that is; null: the content file's stands. */
  stream: PublicVideo | null;
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

/** The status the page states: the live state's when it gives one, else the content file's. */
export function effectiveStatus(live: Pick<LiveState, 'status'>, contentStatus: EventStatus): EventStatus {
  return live.status ?? contentStatus;
}
