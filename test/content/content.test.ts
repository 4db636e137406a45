import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentError, loadContent } from '../../server/content/site-content.ts';
import { toZonedIsoString, zonedTimeToUtc } from '../../server/content/event-time.ts';
import { DEFAULT_CONTENT_PATH } from '../../server/config/paths.ts';
import { studioCities } from '../../shared/page-data.ts';
import type { Language } from '../../shared/languages.ts';
import { moveEvent } from '../helpers/event-times.ts';

const shipped = () => JSON.parse(readFileSync(DEFAULT_CONTENT_PATH, 'utf8')) as Record<string, any>;

function loadEdited(edit: (content: Record<string, any>) => void) {
  const content = shipped();
  edit(content);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'content-')), 'event.json');
  writeFileSync(file, JSON.stringify(content));
  return () => loadContent(file);
}

describe('the shipped content file', () => {
  const content = loadContent(DEFAULT_CONTENT_PATH);

  it('has four studios with everything the page shows', () => {
    expect(content.public.studios).toHaveLength(4);
    expect(content.public.studios.map((s) => s.byLanguage.de!.city)).toEqual([
      'Ismaning',
      'Marbella',
      'Wien',
      'Dübendorf',
    ]);
    expect(content.heroSlides).toHaveLength(4);
  });

  it('labels its sample values as placeholders', () => {
    expect(content.placeholders).toEqual(expect.arrayContaining(['company', 'video', 'studios.0']));
  });

  it('holds the event as real instants in its time zone', () => {
    expect(content.event.start.toISOString()).toBe('2027-03-18T17:00:00.000Z');
    expect(content.event.end.toISOString()).toBe('2027-03-18T20:30:00.000Z');
    expect(content.public.eventDisplay.de!.date).toBe('Donnerstag, 18. März 2027');
    expect(content.public.eventDisplay.en!.date).toBe('Thursday, 18 March 2027');
  });

  it('holds when the event last changed, and every studio address in parts', () => {
    expect(content.event.updated.toISOString()).toBe('2026-11-01T09:00:00.000Z');
    expect(content.public.studios[2]).toMatchObject({
      street: 'Vorgartenstraße 206',
      postalCode: '1020',
      countryCode: 'AT',
    });
    expect(content.public.studios.map((s) => s.countryCode)).toEqual(['DE', 'ES', 'AT', 'CH']);
  });
});

describe('the studios and the company in each language', () => {
  const content = loadContent(DEFAULT_CONTENT_PATH);
  const cards = (lng: Language) =>
    content.public.studios.map(({ byLanguage: { [lng]: shown } }) => `${shown!.city}, ${shown!.country}`);

  it('name each country in the language from its code', () => {
    expect(cards('de')).toEqual([
      'Ismaning, Deutschland',
      'Marbella, Spanien',
      'Wien, Österreich',
      'Dübendorf, Schweiz',
    ]);
    expect(cards('en')).toEqual(['Ismaning, Germany', 'Marbella, Spain', 'Vienna, Austria', 'Dübendorf, Switzerland']);
    expect(cards('es')).toEqual(['Ismaning, Alemania', 'Marbella, España', 'Viena, Austria', 'Dübendorf, Suiza']);
    expect(content.public.company.country).toEqual({ de: 'Österreich', en: 'Austria', es: 'Austria' });
  });

  it('give the hero a city per studio, which need not be its town', () => {
    expect(studioCities(content.public.studios, 'de')).toEqual(['München', 'Marbella', 'Wien', 'Zürich']);
    expect(studioCities(content.public.studios, 'en')).toEqual(['Munich', 'Marbella', 'Vienna', 'Zurich']);
    expect(studioCities(content.public.studios, 'es')).toEqual(['Múnich', 'Marbella', 'Viena', 'Zúrich']);
    expect(content.public.cityList).toEqual({
      de: 'München, Marbella, Wien und Zürich',
      en: 'Munich, Marbella, Vienna and Zurich',
      es: 'Múnich, Marbella, Viena y Zúrich',
    });
  });

  it('fall back to the local form, field by field, where a language gives none', () => {
    const edited = loadEdited((c) => {
      c.studios[1].localized = { en: { name: 'Marbella Studio' }, de: { address: 'Avenida del Mar 12, Marbella' } };
      delete c.studios[3].displayCity;
      c.studios[3].localized = { es: { city: 'Dubendorf' } };
    })();
    const marbella = edited.public.studios[1]!.byLanguage;
    expect([marbella.de!.name, marbella.en!.name, marbella.es!.name]).toEqual([
      'Studio Marbella',
      'Marbella Studio',
      'Studio Marbella',
    ]);
    expect([marbella.de!.address, marbella.en!.address]).toEqual([
      'Avenida del Mar 12, Marbella',
      'Avenida del Mar 12, 29602 Marbella (Málaga)',
    ]);
    // Without a display city the hero names the studio's town, in the language where given.
    const zurich = edited.public.studios[3]!.byLanguage;
    expect([zurich.de!.displayCity, zurich.en!.displayCity, zurich.es!.displayCity]).toEqual([
      'Dübendorf',
      'Dübendorf',
      'Dubendorf',
    ]);
  });

  it('name a city once in the hero when two studios share it', () => {
    const edited = loadEdited((c) => (c.studios[2].displayCity = 'Marbella'))();
    expect(studioCities(edited.public.studios, 'en')).toEqual(['Munich', 'Marbella', 'Zurich']);
    expect(edited.public.cityList.en!).toBe('Munich, Marbella and Zurich');
  });
});

describe('the event for the page clock', () => {
  it('gives the browser the start, end, zone and status, and no recording unless the file names one', () => {
    const content = loadContent(DEFAULT_CONTENT_PATH);
    expect(content.public.event).toEqual({
      start: Date.parse('2027-03-18T17:00:00Z'),
      end: Date.parse('2027-03-18T20:30:00Z'),
      timeZone: 'Europe/Vienna',
      status: 'EventScheduled',
      utcOffsetMinutes: { start: 60, end: 60 },
      recordingUrl: null,
      // The shipped run of show, on the event's clock in Vienna.
      programme: [
        ['welcome', '17:00', 'vienna'],
        ['keynote', '17:15', 'munich'],
        ['products', '17:55', 'zurich'],
        ['music', '18:40', 'marbella'],
        ['panel', '19:00', 'vienna'],
        ['awards', '19:45', 'marbella'],
        ['farewell', '20:15', 'munich'],
      ].map(([id, utc, studioId]) => ({ id, start: Date.parse(`2027-03-18T${utc}:00Z`), studioId })),
    });
    const withRecording = loadEdited((c) => (c.event.recordingUrl = 'https://video.example.com/replay'))();
    expect(withRecording.public.event.recordingUrl).toBe('https://video.example.com/replay');
  });

  it("gives the zone's offset at the start and at the end, which differ across a clock change", () => {
    // Vienna moves from UTC+1 to UTC+2 at 02:00 on 28 March 2027.
    const acrossTheChange = loadEdited((c) =>
      moveEvent(c, { date: '2027-03-28', startTime: '01:00', endTime: '04:00' }),
    )();
    expect(acrossTheChange.public.event.utcOffsetMinutes).toEqual({ start: 60, end: 120 });
    const west = loadEdited((c) => (c.event.timeZone = 'America/St_Johns'))();
    expect(west.public.event.utcOffsetMinutes).toEqual({ start: -150, end: -150 });
  });
});

describe('loadContent with a broken file', () => {
  it.each([
    [
      'a map address that is not https',
      (c: any) => (c.studios[2].mapEmbedUrl = 'javascript:alert(1)'),
      'studios.2.mapEmbedUrl',
    ],
    ['a missing studio name', (c: any) => delete c.studios[1].name, 'studios.1.name'],
    ['an unknown time zone', (c: any) => (c.event.timeZone = 'Mars/Olympus'), 'event.timeZone'],
    ['an end before the start', (c: any) => (c.event.endTime = '17:00'), 'event.endTime'],
    ['a date that does not exist', (c: any) => (c.event.date = '2027-13-45'), 'event.date'],
    [
      'an image from another protocol',
      (c: any) => (c.heroSlides[0].image = 'data:image/png;base64,AAAA'),
      'heroSlides.0.image',
    ],
    ['a bad company email', (c: any) => (c.company.email = 'office'), 'company.email'],
    ['two studios with one id', (c: any) => (c.studios[1].id = c.studios[0].id), 'studios.1.id'],
    [
      'a country name where its code belongs',
      (c: any) => (c.studios[0].countryCode = 'Germany'),
      'studios.0.countryCode',
    ],
    ['a missing postal code', (c: any) => delete c.studios[3].postalCode, 'studios.3.postalCode'],
    ['a country code no one knows', (c: any) => (c.company.countryCode = 'XX'), 'company.countryCode'],
    ['a country kept by hand beside its code', (c: any) => (c.studios[1].country = 'España'), 'studios.1.country'],
    [
      'a form for a language the page does not offer',
      (c: any) => (c.studios[0].localized = { fr: { city: 'Munich' } }),
      'studios.0.localized.fr',
    ],
    [
      'a misspelt field of a local form',
      (c: any) => (c.studios[0].localized = { en: { town: 'Munich' } }),
      '`studios.0.localized.en.town`',
    ],
    ['an update time without its zone', (c: any) => (c.event.updated = '2026-11-01T09:00:00'), 'event.updated'],
    [
      'a recording address that is not https',
      (c: any) => (c.event.recordingUrl = 'http://video.example.com/replay'),
      'event.recordingUrl',
    ],
  ])('names the field for %s', (_case, edit, field) => {
    const load = loadEdited(edit);
    expect(load).toThrow(ContentError);
    expect(load).toThrow(new RegExp(`: ${field.replace(/\./g, '\\.')} `));
  });

  it('says when the file is not JSON', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'content-')), 'event.json');
    writeFileSync(file, '{ "event": ');
    expect(() => loadContent(file)).toThrow(/event\.json:1: not valid JSON here: /);
  });
});

describe('zonedTimeToUtc', () => {
  it('applies summer and winter time of the zone', () => {
    expect(zonedTimeToUtc('2027-01-15', '18:00', 'Europe/Vienna').toISOString()).toBe('2027-01-15T17:00:00.000Z');
    expect(zonedTimeToUtc('2027-07-15', '18:00', 'Europe/Vienna').toISOString()).toBe('2027-07-15T16:00:00.000Z');
    expect(zonedTimeToUtc('2027-03-28', '03:30', 'Europe/Vienna').toISOString()).toBe('2027-03-28T01:30:00.000Z');
    expect(zonedTimeToUtc('2027-07-15', '18:00', 'America/New_York').toISOString()).toBe('2027-07-15T22:00:00.000Z');
  });
});

describe('toZonedIsoString', () => {
  it('writes the wall-clock time of the zone with its offset at that instant', () => {
    expect(toZonedIsoString(new Date('2027-03-18T17:00:00Z'), 'Europe/Vienna')).toBe('2027-03-18T18:00:00+01:00');
    expect(toZonedIsoString(new Date('2027-07-15T16:00:00Z'), 'Europe/Vienna')).toBe('2027-07-15T18:00:00+02:00');
    expect(toZonedIsoString(new Date('2027-07-15T22:00:00Z'), 'America/New_York')).toBe('2027-07-15T18:00:00-04:00');
    expect(toZonedIsoString(new Date('2027-01-15T18:00:00Z'), 'UTC')).toBe('2027-01-15T18:00:00+00:00');
    expect(toZonedIsoString(new Date('2027-01-15T12:00:00Z'), 'Asia/Kolkata')).toBe('2027-01-15T17:30:00+05:30');
  });
});
