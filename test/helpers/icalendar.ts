/**
 * A strict reader of iCalendar (RFC 5545) for the tests: it throws on anything the RFC
 * does not allow in what the server writes, so a test that reads a file has checked it.
 */

export interface ContentLine {
  name: string;
  params: Record<string, string>;
  /** As written, escapes and all. */
  raw: string;
}

export interface ParsedCalendar {
  /** The physical lines, CRLF removed, as octets. */
  physicalLines: Buffer[];
  /** The unfolded content lines, in order. */
  lines: ContentLine[];
}

const CRLF = Buffer.from('\r\n');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** RFC 5545 3.1: CRLF line ends, at most 75 octets a line, folds start with one space or tab. */
export function readContentLines(body: Buffer): ParsedCalendar {
  if (!body.subarray(-2).equals(CRLF)) throw new Error('the file does not end with CRLF');
  const physicalLines: Buffer[] = [];
  for (let start = 0; start < body.length;) {
    const end = body.indexOf(CRLF, start);
    physicalLines.push(body.subarray(start, end));
    start = end + 2;
  }
  const unfolded: string[] = [];
  physicalLines.forEach((octets, i) => {
    if (octets.length > 75) throw new Error(`line ${i + 1} has ${octets.length} octets`);
    // Each physical line must decode alone: a fold inside a UTF-8 sequence would fail here.
    const text = strictUtf8.decode(octets);
    if (/[\r\n]/.test(text)) throw new Error(`line ${i + 1} holds a bare CR or LF`);
    if (text.startsWith(' ') || text.startsWith('\t')) {
      if (unfolded.length === 0) throw new Error('the file starts with a continuation line');
      unfolded[unfolded.length - 1] += text.slice(1);
    } else {
      if (text.length === 0) throw new Error(`line ${i + 1} is empty`);
      unfolded.push(text);
    }
  });
  return { physicalLines, lines: unfolded.map(parseContentLine) };
}

/** contentline = name *(";" param) ":" value (RFC 5545 3.1). */
function parseContentLine(line: string): ContentLine {
  const match = /^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)*):(.*)$/s.exec(
    line,
  );
  if (!match) throw new Error(`not a content line: ${line}`);
  const params: Record<string, string> = {};
  for (const param of match[2]!.split(';').slice(1)) {
    const eq = param.indexOf('=');
    params[param.slice(0, eq).toUpperCase()] = param.slice(eq + 1);
  }
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(match[3]!)) throw new Error(`control character in ${match[1]}`);
  return { name: match[1]!.toUpperCase(), params, raw: match[3]! };
}

/**
 * A TEXT value (RFC 5545 3.3.11) read back: only `\\`, `\;`, `\,`, `\n` and `\N` may follow a
 * backslash, and a comma or semicolon must be escaped.
 */
export function unescapeText(raw: string): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === ',' || ch === ';') throw new Error(`unescaped "${ch}" in TEXT: ${raw}`);
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = raw[++i];
    if (next === '\\' || next === ';' || next === ',') out += next;
    else if (next === 'n' || next === 'N') out += '\n';
    else throw new Error(`invalid escape "\\${next ?? ''}" in TEXT: ${raw}`);
  }
  return out;
}

/** DATE-TIME in UTC (RFC 5545 3.3.5 form 2) read back as an instant. */
export function parseUtcDateTime(raw: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(raw);
  if (!m) throw new Error(`not a UTC DATE-TIME: ${raw}`);
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
}

const TEXT_PROPERTIES = new Set(['UID', 'SUMMARY', 'DESCRIPTION', 'LOCATION', 'PRODID']);
const UTC_PROPERTIES = new Set(['DTSTAMP', 'DTSTART', 'DTEND', 'LAST-MODIFIED']);

export interface CalendarEvent {
  calendar: Record<string, string>;
  event: Record<string, string>;
  times: Record<string, Date>;
}

/**
 * One VCALENDAR with one VEVENT, checked for what RFC 5545 requires of them (VERSION and
 * PRODID once; UID and DTSTAMP once; DTEND after DTSTART) and read into plain values.
 */
export function readSingleEvent(body: Buffer): CalendarEvent & ParsedCalendar {
  const parsed = readContentLines(body);
  const { lines } = parsed;
  const at = (i: number) => `${lines[i]?.name}:${lines[i]?.raw}`;
  if (at(0) !== 'BEGIN:VCALENDAR' || at(lines.length - 1) !== 'END:VCALENDAR') throw new Error('not one VCALENDAR');
  const begin = lines.findIndex((l) => l.name === 'BEGIN' && l.raw === 'VEVENT');
  const end = lines.findIndex((l) => l.name === 'END' && l.raw === 'VEVENT');
  if (begin < 0 || end < begin || lines.filter((l) => l.name === 'BEGIN').length !== 2)
    throw new Error('not one VEVENT');

  const read = (slice: ContentLine[]) => {
    const values: Record<string, string> = {};
    for (const line of slice) {
      if (line.name in values) throw new Error(`${line.name} appears twice`);
      values[line.name] = TEXT_PROPERTIES.has(line.name) ? unescapeText(line.raw) : line.raw;
    }
    return values;
  };
  const calendar = read([...lines.slice(1, begin), ...lines.slice(end + 1, -1)]);
  const event = read(lines.slice(begin + 1, end));
  for (const required of ['VERSION', 'PRODID'])
    if (!(required in calendar)) throw new Error(`VCALENDAR lacks ${required}`);
  if (calendar.VERSION !== '2.0') throw new Error('VERSION is not 2.0');
  for (const required of ['UID', 'DTSTAMP', 'DTSTART'])
    if (!(required in event)) throw new Error(`VEVENT lacks ${required}`);

  const times: Record<string, Date> = {};
  for (const name of UTC_PROPERTIES) if (name in event) times[name] = parseUtcDateTime(event[name]!);
  if (times.DTEND && times.DTEND <= times.DTSTART!) throw new Error('DTEND is not after DTSTART');
  return { ...parsed, calendar, event, times };
}
