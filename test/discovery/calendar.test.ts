import request from 'supertest';
import type { RequestListener } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteContent } from '../../server/content/site-content.ts';
import { DAY_MS } from '../../shared/event-clock.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { bodyBytes, shownTexts, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { parseHtml } from '../helpers/html.ts';
import { readSingleEvent } from '../helpers/icalendar.ts';

const ORIGIN = 'https://event.example.com';
const ENV = { NODE_ENV: 'test', PUBLIC_ORIGIN: ORIGIN };

let app: RequestListener;
let content: SiteContent;
beforeAll(async () => {
  ({
    app,
    deps: { content },
  } = await testApp({}, ENV));
});

/** The calendar file as bytes, exactly as sent. */
const getCalendar = (target: RequestListener, path: string, cookie?: string) =>
  bodyBytes(
    request(target)
      .get(path)
      .set(cookie ? { Cookie: cookie } : {}),
  );

describe('GET /event.ics', () => {
  it('is an iCalendar attachment that reads back under RFC 5545', async () => {
    const res = await getCalendar(app, '/event.ics').expect(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename=horizon-live-2027.ics');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['set-cookie']).toBeUndefined();
    const { event, times } = readSingleEvent(res.body as Buffer);
    expect(event.UID).toBe('horizon-live-2027@example.com');
    expect(times.DTSTART).toEqual(content.event.start);
    expect(times.DTEND).toEqual(content.event.end);
    expect(times.DTSTAMP).toEqual(content.event.updated);
    expect(event.DTSTART).toBe('20270318T170000Z');
    expect(event.DTEND).toBe('20270318T203000Z');
    expect(event.STATUS).toBe('CONFIRMED');
  });

  it('escapes the commas and semicolons of its text and folds its long lines', async () => {
    const res = await getCalendar(app, '/event.ics?lng=en').expect(200);
    const { event, lines, physicalLines } = readSingleEvent(res.body as Buffer);
    expect(event.LOCATION).toBe(
      'Studio München, Ismaning; Studio Marbella, Marbella; Studio Wien, Vienna; Studio Zürich, Dübendorf',
    );
    expect(lines.find((l) => l.name === 'LOCATION')!.raw).toBe(
      'Studio München\\, Ismaning\\; Studio Marbella\\, Marbella\\; Studio Wien\\, Vienna\\; Studio Zürich\\, Dübendorf',
    );
    const t = await shownTexts('en');
    expect(event.DESCRIPTION).toBe(`${t('meta.description')}\n\n${t('hero.cta')}: ${ORIGIN}/?lng=en#rsvp`);
    expect(event.DESCRIPTION).toContain('Live from Munich, Marbella, Vienna and Zurich');
    expect(lines.find((l) => l.name === 'DESCRIPTION')!.raw).toContain('\\,');
    expect(physicalLines.some((line) => line[0] === 0x20)).toBe(true);
  });

  it.each(LANGUAGES)('is written in %s when asked by ?lng=, and links to the page in it', async (lng) => {
    const res = await getCalendar(
      app,
      `/event.ics?lng=${lng}`,
      `selectedLanguage=${lng === 'de' ? 'en' : 'de'}`,
    ).expect(200);
    const { event } = readSingleEvent(res.body as Buffer);
    const t = await shownTexts(lng);
    expect(event.SUMMARY).toBe(t('hero.title'));
    expect(event.DESCRIPTION!.startsWith(t('meta.description'))).toBe(true);
    expect(event.URL).toBe(`${ORIGIN}/?lng=${lng}`);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('follows the language cookie without ?lng=, and German without either', async () => {
    const es = readSingleEvent((await getCalendar(app, '/event.ics', 'selectedLanguage=es')).body as Buffer);
    expect(es.event.URL).toBe(`${ORIGIN}/?lng=es`);
    const fallback = readSingleEvent((await getCalendar(app, '/event.ics?lng=fr')).body as Buffer);
    expect(fallback.event.URL).toBe(`${ORIGIN}/?lng=de`);
  });

  it('sends byte-identical files for the same content, from any server instance', async () => {
    const { app: another } = await testApp({}, ENV);
    const [a, b] = await Promise.all([
      getCalendar(app, '/event.ics?lng=es'),
      getCalendar(another, '/event.ics?lng=es'),
    ]);
    expect(Buffer.compare(a.body as Buffer, b.body as Buffer)).toBe(0);
  });

  it('folds a long line with multi-byte characters at the fold without splitting one, and escapes hostile text', async () => {
    // As long as a studio's name may be, 60 characters, and 95 octets in UTF-8.
    const longName = `${'A'.repeat(35)}${'€'.repeat(25)}`;
    const punctuated = 'Halle "Nord"; Tor 3, Eingang \\ B';
    const edited = editedContent((file) => {
      file.studios[0].name = longName;
      file.studios[1].name = punctuated;
      file.event.status = 'EventCancelled';
    });
    const { app: withEdits } = await testApp({ content: edited }, ENV);
    const res = await getCalendar(withEdits, '/event.ics?lng=de').expect(200);
    const { event, physicalLines } = readSingleEvent(res.body as Buffer);

    expect(event.LOCATION).toBe(
      `${longName}, Ismaning; ${punctuated}, Marbella; Studio Wien, Wien; Studio Zürich, Dübendorf`,
    );
    expect(event.STATUS).toBe('CANCELLED');
    // "LOCATION:", 35 "A" and 10 "€" are 74 octets: the 11th 3-octet "€" does not fit and starts the next line whole.
    const first = physicalLines.findIndex((line) => line.toString('utf8').startsWith('LOCATION:'));
    expect(physicalLines[first]!.toString('utf8')).toBe(`LOCATION:${'A'.repeat(35)}${'€'.repeat(10)}`);
    expect(physicalLines[first]!.length).toBe(74);
    expect(physicalLines[first + 1]!.toString('utf8')).toMatch(new RegExp(`^ ${'€'.repeat(15)}\\\\, Ismaning`));
  });

  it('builds its addresses from PUBLIC_ORIGIN, whatever the Host and X-Forwarded-* headers say', async () => {
    const plain = await getCalendar(app, '/event.ics?lng=en');
    const forged = await getCalendar(app, '/event.ics?lng=en').set({
      Host: 'evil.example',
      'X-Forwarded-Host': 'evil.example',
      'X-Forwarded-Proto': 'http',
    });
    expect(Buffer.compare(plain.body as Buffer, forged.body as Buffer)).toBe(0);
  });
});

describe('the hero', () => {
  // Before the start, whatever the day the suite runs: the calendar entry is offered until then.
  let beforeStart: RequestListener;
  beforeAll(async () => {
    ({ app: beforeStart } = await testApp({ now: () => content.public.event.start - 3 * DAY_MS }, ENV));
  });

  it.each(LANGUAGES)('offers the calendar entry in %s before the start', async (lng) => {
    const doc = parseHtml((await request(beforeStart).get('/').set('Cookie', `selectedLanguage=${lng}`)).text);
    const link = doc.querySelector('.hero__actions a[href^="/event.ics"]')!;
    expect(link.getAttribute('href')).toBe(`/event.ics?lng=${lng}`);
    expect(link.textContent).toBe((await shownTexts(lng))('hero.addToCalendar'));
  });
});
