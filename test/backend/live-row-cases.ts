import { EVENT_STATUSES } from '../../shared/event-clock.ts';
import { TEXT_LIMITS } from '../../server/content/text-limits.ts';

/**
 * The live row's values and their verdicts, in one list that both checkers run: the server's
 * check of the row (test/backend/live-row.test.ts, on the sample content's rules) and the
 * database's constraints at the save (test/db/live-state-rules.test.ts, as the table editor
 * writes). A rule the database can know gets the same verdict from both, naming the constraint it
 * refuses with; a rule only the content file knows is the server's alone, and the database saves
 * the value. The database is never stricter: what the server takes, it saves.
 */
export type LiveRowColumn =
  | 'notice_level'
  | 'notice_de'
  | 'notice_en'
  | 'notice_es'
  | 'status'
  | 'start_time'
  | 'end_time'
  | 'stream_embed_url'
  | 'recording_embed_url'
  | 'recording_begins_at';

export type LiveRowCase = {
  name: string;
  /** The columns a save sets; the others are NULL. */
  columns: Partial<Record<LiveRowColumn, string>>;
} & (
  | { verdict: 'saved' }
  | {
      verdict: 'refused';
      /** The constraint the database refuses the save with. */
      constraint: string;
      /** The column the server's refusal names first. */
      serverNames: string;
    }
  | {
      verdict: 'refused by the server';
      /** Why the database cannot know the rule. */
      because: string;
      serverNames: string;
    }
);

const TEXT = 'Der Beginn verschiebt sich auf 18:15 Uhr.';
const LONGEST = 'ü'.repeat(TEXT_LIMITS.notice);
const TOO_LONG = 'ü'.repeat(TEXT_LIMITS.notice + 1);
/** The white space JavaScript's trim() takes off beyond ASCII's: a no-break space, an ideographic space, a line separator. */
const UNICODE_BLANK = '\u00a0\u3000\u2028';
const BACKUP = 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?controls=0&rel=0';
const RECORDING = 'https://www.youtube-nocookie.com/embed/recording01';
/** The sample content's event.date. */
const EVENT_DATE = '2027-03-18';

export const LIVE_ROW_CASES: readonly LiveRowCase[] = [
  { name: 'nothing filled in', columns: {}, verdict: 'saved' },
  {
    name: 'every field emptied, or only spaces',
    columns: {
      notice_level: '',
      notice_de: '  ',
      notice_en: '',
      status: ' ',
      start_time: '',
      end_time: '\t',
      stream_embed_url: '',
      recording_embed_url: ' ',
      recording_begins_at: '',
    },
    verdict: 'saved',
  },
  {
    name: 'fields holding only Unicode white space',
    columns: { notice_level: UNICODE_BLANK, notice_de: UNICODE_BLANK, status: UNICODE_BLANK },
    verdict: 'saved',
  },
  {
    name: 'an info notice in the default language',
    columns: { notice_level: 'info', notice_de: TEXT },
    verdict: 'saved',
  },
  {
    name: 'a warning in every language',
    columns: {
      notice_level: 'warning',
      notice_de: TEXT,
      notice_en: 'The start moves to 18:15.',
      notice_es: 'A las 18:15.',
    },
    verdict: 'saved',
  },
  {
    name: `a notice of ${TEXT_LIMITS.notice} characters, with spaces around it`,
    columns: { notice_level: 'info', notice_de: `  ${LONGEST} `, notice_en: LONGEST },
    verdict: 'saved',
  },
  {
    name: 'a notice holding HTML, kept as text',
    columns: { notice_level: 'info', notice_de: "<b>Neu</b> <script>alert('x')</script>" },
    verdict: 'saved',
  },
  ...EVENT_STATUSES.map((status): LiveRowCase => ({ name: `status ${status}`, columns: { status }, verdict: 'saved' })),
  { name: 'a delay', columns: { start_time: '18:15' }, verdict: 'saved' },
  { name: 'a time with spaces around it', columns: { start_time: ' 18:15 ' }, verdict: 'saved' },
  { name: 'an early end', columns: { end_time: '21:00' }, verdict: 'saved' },
  { name: 'both times, the end later', columns: { start_time: '18:30', end_time: '22:00' }, verdict: 'saved' },
  { name: 'a time with the event’s date', columns: { start_time: `${EVENT_DATE}T18:15` }, verdict: 'saved' },
  { name: 'a backup stream', columns: { stream_embed_url: BACKUP }, verdict: 'saved' },
  { name: 'a recording', columns: { recording_embed_url: RECORDING }, verdict: 'saved' },
  {
    name: 'a recording trimmed at its beginning, the moment written with or without hours',
    columns: { recording_embed_url: RECORDING, recording_begins_at: ' 0:04:30 ' },
    verdict: 'saved',
  },
  {
    name: 'a recording trimmed by minutes',
    columns: { recording_embed_url: RECORDING, recording_begins_at: '4:30' },
    verdict: 'saved',
  },

  {
    name: 'a capitalised level',
    columns: { notice_level: 'Warning', notice_de: TEXT },
    verdict: 'refused',
    constraint: 'notice_level is info or warning',
    serverNames: 'notice_level',
  },
  {
    name: 'a level the page does not know',
    columns: { notice_level: 'alarm', notice_de: TEXT },
    verdict: 'refused',
    constraint: 'notice_level is info or warning',
    serverNames: 'notice_level',
  },
  {
    name: 'a level with a space before it',
    columns: { notice_level: ' info', notice_de: TEXT },
    verdict: 'refused',
    constraint: 'notice_level is info or warning',
    serverNames: 'notice_level',
  },
  {
    name: 'a status that is not one',
    columns: { status: 'EventDelayed' },
    verdict: 'refused',
    constraint: 'status is one of the five event statuses',
    serverNames: 'status',
  },
  {
    name: 'a status in the wrong case',
    columns: { status: 'eventpostponed' },
    verdict: 'refused',
    constraint: 'status is one of the five event statuses',
    serverNames: 'status',
  },
  {
    name: `a notice of ${TEXT_LIMITS.notice + 1} characters in the default language`,
    columns: { notice_level: 'info', notice_de: TOO_LONG },
    verdict: 'refused',
    constraint: 'notice_de has at most 200 characters',
    serverNames: 'notice_de',
  },
  {
    name: `a notice of ${TEXT_LIMITS.notice + 1} characters in English`,
    columns: { notice_level: 'info', notice_de: TEXT, notice_en: TOO_LONG },
    verdict: 'refused',
    constraint: 'notice_en has at most 200 characters',
    serverNames: 'notice_en',
  },
  {
    name: `a notice of ${TEXT_LIMITS.notice + 1} characters in Spanish`,
    columns: { notice_level: 'info', notice_de: TEXT, notice_es: TOO_LONG },
    verdict: 'refused',
    constraint: 'notice_es has at most 200 characters',
    serverNames: 'notice_es',
  },
  {
    name: 'a text without a level',
    columns: { notice_de: TEXT },
    verdict: 'refused',
    constraint: 'notice_de needs a notice_level',
    serverNames: 'notice_level',
  },
  {
    name: 'an English text without a level',
    columns: { notice_en: 'The start moves to 18:15.' },
    verdict: 'refused',
    constraint: 'notice_en needs a notice_level',
    serverNames: 'notice_level',
  },
  {
    name: 'a Spanish text without a level',
    columns: { notice_es: 'A las 18:15.' },
    verdict: 'refused',
    constraint: 'notice_es needs a notice_level',
    serverNames: 'notice_level',
  },
  {
    name: 'a level without the default language’s text',
    columns: { notice_level: 'info', notice_en: 'The start moves to 18:15.' },
    verdict: 'refused',
    constraint: 'notice_level needs a notice_de text',
    serverNames: 'notice_de',
  },
  {
    name: 'a level alone',
    columns: { notice_level: 'warning' },
    verdict: 'refused',
    constraint: 'notice_level needs a notice_de text',
    serverNames: 'notice_de',
  },
  {
    name: 'a time with a dot',
    columns: { start_time: '18.15' },
    verdict: 'refused',
    constraint: 'start_time is a time like 18:15',
    serverNames: 'start_time',
  },
  {
    name: 'a time on a 12-hour clock',
    columns: { start_time: '6:15pm' },
    verdict: 'refused',
    constraint: 'start_time is a time like 18:15',
    serverNames: 'start_time',
  },
  {
    name: 'an hour past the day',
    columns: { end_time: '24:00' },
    verdict: 'refused',
    constraint: 'end_time is a time like 21:30',
    serverNames: 'end_time',
  },
  {
    name: 'an end before the start',
    columns: { start_time: '20:00', end_time: '19:00' },
    verdict: 'refused',
    constraint: 'end_time is later than start_time',
    serverNames: 'end_time',
  },
  {
    name: 'an end at the start',
    columns: { start_time: '19:00', end_time: `${EVENT_DATE}T19:00` },
    verdict: 'refused',
    constraint: 'end_time is later than start_time',
    serverNames: 'end_time',
  },
  {
    name: 'a stream over http',
    columns: { stream_embed_url: 'http://www.youtube-nocookie.com/embed/aqz-KE-bpKQ' },
    verdict: 'refused',
    constraint: 'stream_embed_url is an https:// address',
    serverNames: 'stream_embed_url',
  },
  {
    name: 'a stream without its scheme',
    columns: { stream_embed_url: 'www.youtube-nocookie.com/embed/aqz-KE-bpKQ' },
    verdict: 'refused',
    constraint: 'stream_embed_url is an https:// address',
    serverNames: 'stream_embed_url',
  },
  {
    name: 'a recording over http',
    columns: { recording_embed_url: 'http://www.youtube-nocookie.com/embed/aqz-KE-bpKQ' },
    verdict: 'refused',
    constraint: 'recording_embed_url is an https:// address',
    serverNames: 'recording_embed_url',
  },
  {
    name: 'a recording’s beginning that is not a moment',
    columns: { recording_embed_url: RECORDING, recording_begins_at: '4 min 30' },
    verdict: 'refused',
    constraint: 'recording_begins_at is a moment like 0:04:30',
    serverNames: 'recording_begins_at',
  },
  {
    name: 'a recording’s beginning past a minute’s seconds',
    columns: { recording_embed_url: RECORDING, recording_begins_at: '0:04:60' },
    verdict: 'refused',
    constraint: 'recording_begins_at is a moment like 0:04:30',
    serverNames: 'recording_begins_at',
  },
  {
    name: 'a recording’s beginning without the recording',
    columns: { recording_begins_at: '0:04:30' },
    verdict: 'refused',
    constraint: 'recording_begins_at needs a recording_embed_url',
    serverNames: 'recording_embed_url',
  },

  {
    name: 'a time on another day than the event’s',
    columns: { start_time: '2027-03-19T18:15' },
    verdict: 'refused by the server',
    because: 'the event’s date is the content file’s',
    serverNames: 'start_time',
  },
  {
    name: 'an end before the content file’s start',
    columns: { end_time: '17:00' },
    verdict: 'refused by the server',
    because: 'the planned start is the content file’s',
    serverNames: 'end_time',
  },
  {
    name: 'a start after the content file’s end',
    columns: { start_time: '22:00' },
    verdict: 'refused by the server',
    because: 'the planned end is the content file’s',
    serverNames: 'start_time',
  },
  {
    name: 'a stream from an origin the page does not let frames come from',
    columns: { stream_embed_url: 'https://player.vimeo.com/video/76979871' },
    verdict: 'refused by the server',
    because: 'the frame origins the page allows are the content file’s',
    serverNames: 'stream_embed_url',
  },
  {
    name: 'a watch page, not a player',
    columns: { stream_embed_url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' },
    verdict: 'refused by the server',
    because: 'which address a provider embeds is the server’s rule of the content file’s video',
    serverNames: 'stream_embed_url',
  },
  {
    name: 'a recording from an origin the page does not let frames come from',
    columns: { recording_embed_url: 'https://player.vimeo.com/video/76979871' },
    verdict: 'refused by the server',
    because: 'the frame origins the page allows are the content file’s',
    serverNames: 'recording_embed_url',
  },
  {
    name: 'a recording that begins after the broadcast’s end',
    columns: { recording_embed_url: RECORDING, recording_begins_at: '3:30:00' },
    verdict: 'refused by the server',
    because: 'the broadcast’s length is the content file’s times',
    serverNames: 'recording_begins_at',
  },
];
