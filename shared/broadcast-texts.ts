import type { EventPhase } from './event-clock.ts';

/**
 * The texts that speak of the start, the broadcast or the stream, wherever they are shown (the
 * page, its head, the calendar file), and the locale key each takes at each moment of the day: no
 * sentence may contradict the phase, the status or the day's times. null: nothing is shown then.
 * A cancelled or postponed event offers no stream to play.
 */

/**
 * The event's phase, with `moved` for an event ahead whose start the live state has moved, and
 * for an event over `awaiting` while the recording the content plans is not named yet, `recording`
 * once it is.
 */
export type BroadcastMoment =
  'before' | 'moved' | 'live' | 'after' | 'awaiting' | 'recording' | 'cancelled' | 'postponed';

export const BROADCAST_MOMENTS: readonly BroadcastMoment[] = [
  'before',
  'moved',
  'live',
  'after',
  'awaiting',
  'recording',
  'cancelled',
  'postponed',
];

/** What the page knows of the recording: named (by the live state or the content file), only planned, or neither. */
export type RecordingNews = 'named' | 'planned' | null;

export function broadcastMoment(
  phase: EventPhase,
  startMoved: boolean,
  recording: RecordingNews = null,
): BroadcastMoment {
  if (phase === 'before' && startMoved) return 'moved';
  if (phase === 'after' && recording === 'named') return 'recording';
  if (phase === 'after' && recording === 'planned') return 'awaiting';
  return phase;
}

type ByMoment = Readonly<Record<BroadcastMoment, string | null>>;

/** The same key before the start, moved or not. */
const ahead = <Key extends string | null>(key: Key) => ({ before: key, moved: key });
/** The same key after the end while no recording is named, planned or not. */
const ended = <Key extends string | null>(key: Key) => ({ after: key, awaiting: key });

export const BROADCAST_TEXTS = {
  /** The stream section's sentence under its heading; `{{date}}` and `{{time}}` are the day's. */
  streamIntro: {
    before: 'video.intro',
    moved: 'video.introMoved',
    live: 'video.introLive',
    after: 'video.introAfter',
    awaiting: 'video.introAwaiting',
    recording: 'video.introRecording',
    cancelled: 'video.introCancelled',
    postponed: 'video.introPostponed',
  },
  /** The hero's first button, to the stream section. */
  heroButton: {
    ...ahead('hero.cta'),
    live: 'hero.ctaLive',
    ...ended(null),
    recording: 'hero.recording',
    cancelled: null,
    postponed: null,
  },
  /** Under the hero's date: the countdown shows before the start instead. */
  heroStatus: {
    ...ahead(null),
    live: 'hero.live',
    ...ended('hero.ended'),
    recording: 'hero.ended',
    cancelled: 'hero.cancelled',
    postponed: 'hero.postponed',
  },
  /** The player's placeholder button; `{{date}}` and `{{time}}` are the day's. */
  playButton: {
    ...ahead('video.playBefore'),
    live: 'video.playLive',
    ...ended(null),
    recording: 'video.playRecording',
    cancelled: null,
    postponed: null,
  },
  /** In the player's box, where there is nothing to play. */
  playerClosed: {
    ...ahead(null),
    live: null,
    after: 'hero.ended',
    awaiting: 'video.recordingSoon',
    recording: null,
    cancelled: 'hero.cancelled',
    postponed: 'hero.postponed',
  },
  /** The link to the stream at its provider, under the player. */
  providerLink: {
    ...ahead('video.watchAt'),
    live: 'video.watchAt',
    ...ended(null),
    recording: 'video.watchRecordingAt',
    cancelled: null,
    postponed: null,
  },
  /** The player's title, for assistive technology: after the end, of a stream still playing. */
  playerTitle: {
    ...ahead('video.frameTitle'),
    live: 'video.frameTitle',
    ...ended('video.frameTitle'),
    recording: 'video.frameTitleRecording',
    cancelled: null,
    postponed: null,
  },
  /** The page's description: `<meta name="description">`, Open Graph's, the card's, the JSON-LD's. */
  description: {
    ...ahead('meta.description'),
    live: 'meta.description',
    ...ended('meta.descriptionAfter'),
    recording: 'meta.descriptionRecording',
    cancelled: 'meta.descriptionCancelled',
    postponed: 'meta.descriptionPostponed',
  },
  /** The calendar entry's title (`/event.ics`). */
  calendarSummary: {
    ...ahead('hero.title'),
    live: 'hero.title',
    ...ended('hero.title'),
    recording: 'hero.title',
    cancelled: 'calendar.summaryCancelled',
    postponed: 'calendar.summaryPostponed',
  },
  /** The calendar entry's link to the stream, after its description; the page's address alone without one. */
  calendarLink: {
    ...ahead('hero.cta'),
    live: 'hero.cta',
    ...ended(null),
    recording: 'hero.recording',
    cancelled: null,
    postponed: null,
  },
} as const satisfies Record<string, ByMoment>;

export type BroadcastText = keyof typeof BROADCAST_TEXTS;

/** The key a text takes at a moment, or null when it is not shown then. */
export function broadcastTextKey(text: BroadcastText, moment: BroadcastMoment): string | null {
  return (BROADCAST_TEXTS[text] as ByMoment)[moment];
}

/** Every key of these texts, with the first moment each is shown at: what every language must translate. */
export function broadcastTextKeys(): Map<string, BroadcastMoment> {
  const keys = new Map<string, BroadcastMoment>();
  for (const byMoment of Object.values(BROADCAST_TEXTS) as ByMoment[])
    for (const moment of BROADCAST_MOMENTS) {
      const key = byMoment[moment];
      if (key !== null && !keys.has(key)) keys.set(key, moment);
    }
  return keys;
}
