import { eventDisplayIn, utcOffsetMinutes } from './event-display.ts';
import type { LiveEventRules } from './live-schedule.ts';
import { liveStreamRulesOf, type LiveStreamRules } from './live-stream.ts';
import { valuesByLanguage, type SiteContent } from './site-content.ts';

/**
 * What the live state is checked against and formed with: the content file's own facts. The live
 * file and the backend's row are checked with the same rules.
 */
export interface LiveRules {
  /** The offered languages' codes, the default first. */
  languages: readonly string[];
  /** The event's planned day and times, which the live state's times move; null while unknown. */
  event: LiveEventRules | null;
  /** What a backup stream is checked against; null while the content file has problems (live-stream.ts). */
  stream: LiveStreamRules | null;
}

/** The rules of a content file that loaded. */
export function liveRulesOf(content: SiteContent): LiveRules {
  const { date, startTime, endTime, timeZone, status } = content.raw.event;
  const { languages, event: planned } = content.public;
  return {
    languages: languages.map((language) => language.code),
    stream: liveStreamRulesOf(content),
    event: {
      date,
      startTime,
      endTime,
      timeZone,
      status,
      form: (start, end) => {
        // The programme moves with the start (shared/live-state.ts's eventWithLive).
        const programme = planned.programme.map((segment) => segment.start + start.getTime() - planned.start);
        return {
          start: start.getTime(),
          end: end.getTime(),
          utcOffsetMinutes: utcOffsetMinutes(start, end, timeZone),
          display: valuesByLanguage(languages, (_language, locale) =>
            eventDisplayIn(locale, start, end, timeZone, programme),
          ),
        };
      },
    },
  };
}

/**
 * The rules while the content file itself has problems: its languages, as it lists them. Its
 * frames are not known, so a backup stream cannot be checked and is left out with a warning.
 */
export function liveRulesOfLanguages(languages: readonly string[]): LiveRules {
  return { languages, event: null, stream: null };
}
