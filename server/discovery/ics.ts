import type { EventFacts } from '../content/site-content.ts';

/** RFC 5545 3.1: a content line is at most 75 octets, not counting its CRLF. */
const MAX_LINE_OCTETS = 75;
const CRLF = '\r\n';

export interface CalendarEntry {
  event: EventFacts;
  summary: string;
  description: string;
  location: string;
  url: string;
}

/** The event's STATUS for calendar apps; schema.org has finer states than iCalendar. */
const ICAL_STATUS: Record<EventFacts['status'], string> = {
  EventScheduled: 'CONFIRMED',
  EventRescheduled: 'CONFIRMED',
  EventMovedOnline: 'CONFIRMED',
  EventPostponed: 'TENTATIVE',
  EventCancelled: 'CANCELLED',
};

/**
 * The event as an iCalendar file (RFC 5545). Times are in UTC, so no VTIMEZONE is needed.
 * DTSTAMP is the content's `updated` time (or the live state's, when later) rather than the time
 * of the request: the same content always gives the same bytes, and a calendar app that sees the
 * entry again (same UID) can tell a revised one by its higher SEQUENCE and later stamp.
 */
export function eventCalendar(entry: CalendarEntry): string {
  const { event } = entry;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//studio-event-landing//event.ics//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcDateTime(event.updated)}`,
    `SEQUENCE:${event.sequence}`,
    `LAST-MODIFIED:${utcDateTime(event.updated)}`,
    `DTSTART:${utcDateTime(event.start)}`,
    `DTEND:${utcDateTime(event.end)}`,
    `SUMMARY:${escapeText(entry.summary)}`,
    `DESCRIPTION:${escapeText(entry.description)}`,
    `LOCATION:${escapeText(entry.location)}`,
    `URL:${entry.url}`,
    `STATUS:${ICAL_STATUS[event.status]}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** RFC 5545 3.3.5 form 2: 20270318T170000Z. */
export function utcDateTime(instant: Date): string {
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, every line
 * break written as `\n`, and other control characters, which TEXT may not hold, dropped.
 */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- control characters are what this strips
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\\;,\n]/g, (ch) => (ch === '\n' ? '\\n' : `\\${ch}`))
  );
}

/**
 * Folds a content line (RFC 5545 3.1): no physical line longer than 75 octets, each
 * continuation starting with one space. It breaks between characters, never inside a
 * UTF-8 sequence (nor between the halves of a surrogate pair), so every line decodes alone.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > MAX_LINE_OCTETS) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(CRLF);
}
