import { describe, expect, it } from 'vitest';
import type { EventFacts } from '../../server/content/site-content.ts';
import { escapeText, eventCalendar, foldLine, utcDateTime } from '../../server/discovery/ics.ts';
import { readContentLines, readSingleEvent, unescapeText } from '../helpers/icalendar.ts';

const event: EventFacts = {
  start: new Date('2027-03-18T17:00:00Z'),
  end: new Date('2027-03-18T20:30:00Z'),
  timeZone: 'Europe/Vienna',
  status: 'EventScheduled',
  uid: 'horizon-live-2027@example.com',
  updated: new Date('2026-11-01T09:00:00Z'),
  sequence: 0,
};
const entry = {
  event,
  summary: 'Horizon Live 2027',
  description: 'One evening, four studios; one broadcast.\nWatch: https://event.example.com/?lng=en#rsvp',
  location: 'Studio München, Ismaning; Studio Zürich, Dübendorf',
  url: 'https://event.example.com/?lng=en',
};

describe('escapeText', () => {
  it('escapes backslash, semicolon and comma, and writes line breaks as \\n', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng');
  });

  it('drops control characters TEXT may not hold, but keeps a tab', () => {
    expect(escapeText('a\u0000b\u0007c\u001bd\u007fe\tf')).toBe('abcde\tf');
  });

  it('reads back unchanged', () => {
    const value = 'Halle "Nord"; Tor 3, Eingang \\ B\nzweite Zeile: ü € 🎬';
    expect(unescapeText(escapeText(value))).toBe(value);
  });
});

describe('utcDateTime', () => {
  it('writes the UTC form of RFC 5545', () => {
    expect(utcDateTime(new Date('2027-03-18T17:00:00.000Z'))).toBe('20270318T170000Z');
    expect(utcDateTime(new Date('2027-12-31T23:59:59.999Z'))).toBe('20271231T235959Z');
  });
});

describe('foldLine', () => {
  const octets = (s: string) => Buffer.byteLength(s, 'utf8');
  const physical = (folded: string) => folded.split('\r\n');
  const unfold = (folded: string) => folded.replace(/\r\n[ \t]/g, '');

  it('leaves a line of 75 octets alone', () => {
    const line = `DESCRIPTION:${'x'.repeat(63)}`;
    expect(octets(line)).toBe(75);
    expect(foldLine(line)).toBe(line);
  });

  it('folds a long ASCII line at exactly 75 octets, continuations starting with one space', () => {
    const line = `DESCRIPTION:${'x'.repeat(200)}`;
    const lines = physical(foldLine(line));
    expect(lines.map(octets)).toEqual([75, 75, 64]);
    expect(lines.slice(1).every((l) => l.startsWith(' ') && !l.startsWith('  '))).toBe(true);
    expect(unfold(foldLine(line))).toBe(line);
  });

  // Shift multi-byte characters across the 75-octet boundary one octet at a time.
  it.each(['ü', '€', '🎬', 'e\u0301'])('never splits a UTF-8 sequence of %j, wherever it falls', (char) => {
    for (let prefix = 55; prefix <= 80; prefix++) {
      const line = `LOCATION:${'a'.repeat(prefix)}${char.repeat(40)}`;
      const folded = foldLine(line);
      const lines = physical(folded);
      expect(unfold(folded)).toBe(line);
      lines.forEach((l, i) => {
        const bytes = Buffer.from(l, 'utf8');
        expect(bytes.length).toBeLessThanOrEqual(75);
        expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).not.toThrow();
        expect(l).not.toMatch(/[\ud800-\udbff]$/);
        // Folded as late as the next character allows: it would not have fitted.
        const next = lines[i + 1];
        if (next) expect(bytes.length + octets([...next.slice(1)][0]!)).toBeGreaterThan(75);
      });
    }
  });
});

describe('eventCalendar', () => {
  it('writes one event that reads back under RFC 5545', () => {
    const body = Buffer.from(eventCalendar(entry), 'utf8');
    const { calendar, event: read, times } = readSingleEvent(body);
    expect(calendar).toMatchObject({ VERSION: '2.0', CALSCALE: 'GREGORIAN' });
    expect(calendar.PRODID).toMatch(/^-\/\//);
    expect(read).toMatchObject({
      UID: event.uid,
      SUMMARY: entry.summary,
      DESCRIPTION: entry.description,
      LOCATION: entry.location,
      URL: entry.url,
      STATUS: 'CONFIRMED',
    });
    expect(times.DTSTART).toEqual(event.start);
    expect(times.DTEND).toEqual(event.end);
    expect(times.DTSTAMP).toEqual(event.updated);
  });

  it('writes the same bytes for the same content', () => {
    expect(eventCalendar(entry)).toBe(eventCalendar({ ...entry, event: { ...event } }));
  });

  it.each([
    ['EventCancelled', 'CANCELLED'],
    ['EventPostponed', 'TENTATIVE'],
    ['EventRescheduled', 'CONFIRMED'],
  ] as const)('marks an event %s as STATUS:%s', (status, expected) => {
    const body = Buffer.from(eventCalendar({ ...entry, event: { ...event, status } }));
    expect(readSingleEvent(body).event.STATUS).toBe(expected);
  });
});

describe('the test reader itself', () => {
  const valid =
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a@b\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20270101T000000Z\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

  it('accepts a minimal calendar', () => {
    expect(readSingleEvent(Buffer.from(valid)).event.SUMMARY).toBe('x');
  });

  it.each([
    ['bare LF line ends', valid.replace(/\r\n/g, '\n')],
    ['an unescaped comma', valid.replace('SUMMARY:x', 'SUMMARY:a, b')],
    ['an unescaped semicolon', valid.replace('SUMMARY:x', 'SUMMARY:a; b')],
    ['an unknown escape', valid.replace('SUMMARY:x', 'SUMMARY:a\\tb')],
    ['a line of 76 octets', valid.replace('SUMMARY:x', `SUMMARY:${'x'.repeat(68)}`)],
    ['a local time where UTC is written', valid.replace('DTSTART:20270101T000000Z', 'DTSTART:20270101T000000')],
    ['a missing DTSTAMP', valid.replace('DTSTAMP:20260101T000000Z\r\n', '')],
  ])('rejects %s', (_case, text) => {
    expect(() => readSingleEvent(Buffer.from(text))).toThrow();
  });

  it('rejects a fold inside a UTF-8 sequence', () => {
    const bytes = Buffer.from(`SUMMARY:${'x'.repeat(65)}€\r\n`);
    const cut = bytes.indexOf(Buffer.from('€')) + 1;
    const split = Buffer.concat([bytes.subarray(0, cut), Buffer.from('\r\n '), bytes.subarray(cut)]);
    expect(() => readContentLines(split)).toThrow();
  });
});
