import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { studioCities, type HeroSlide, type PublicContent, type StudioText } from '../../shared/content.ts';
import { LANGUAGES, LANGUAGE_LOCALES, type Language } from '../../shared/languages.ts';
import { MINUTE_MS } from '../../shared/event-clock.ts';
import { isTimeZone, offsetMs, zonedTimeToUtc } from './event-time.ts';

/** The content file is unusable; the message names the file and the bad field. */
export class ContentError extends Error {
  override name = 'ContentError';
}

const text = z.string().trim().min(1).max(500);
const note = z.string().optional().describe('A note for editors that this object still holds sample values');

const httpsUrl = z
  .string()
  .regex(/^https:\/\//i, 'must be an https:// address')
  .refine((value) => parseUrl(value)?.protocol === 'https:', 'must be an https:// address');
/** A file under public/ ("/images/a.jpg") or an https:// address. */
const imageAddress = z
  .string()
  .regex(/^(\/(?![/\\])|https:\/\/)/i, 'must start with "/" or https://')
  .refine(
    (value) => /^\/(?![/\\])/.test(value) || parseUrl(value)?.protocol === 'https:',
    'must start with "/" or https://',
  );
const srcset = z
  .string()
  .refine(
    (value) => value.split(',').every((candidate) => /^\S+ \d+w$/.test(candidate.trim())),
    'must list "<address> <width>w" entries',
  );

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2027-03-18')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date');
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time like 18:00');
const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be a two-letter country code like AT')
  // Checked only in the right shape: Intl throws on others.
  .refine((code) => !/^[A-Z]{2}$/.test(code) || countryName('en', code) !== undefined, 'is not a known country code')
  .describe('ISO 3166-1 alpha-2 code, like AT; the page names the country in its own language');

/** The hand-kept country name of earlier files: refused, so that no page shows the country twice. */
const retiredCountry = z
  .never({ error: 'is no longer used: countryCode names the country; remove it (and the country from address)' })
  .optional()
  .describe('No longer used: countryCode names the country in the page’s language');

/** What a studio is called and where it is in one language, where that differs from the local form. */
const studioLocalForm = z
  .strictObject({
    name: text.optional(),
    city: text.optional(),
    address: text.optional(),
    displayCity: text.optional(),
  })
  .describe('Only the fields that differ from the local form');

/** Keyed by language code ("en"); a language not named shows the local form. */
const perLanguage = <T extends z.ZodType>(form: T) =>
  z.strictObject(
    Object.fromEntries(LANGUAGES.map((language) => [language, form.optional()])) as Record<Language, z.ZodOptional<T>>,
  );

const utcDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'must be a UTC date and time like 2026-11-01T09:00:00Z')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'is not a real date and time');

/** The content file's shape and rules; also the source of its JSON Schema (content/event.schema.json). */
export const contentSchema = z.object({
  $schema: z.string().optional(),
  placeholder: note,
  event: z
    .object({
      placeholder: note,
      date: isoDate.describe('The day of the broadcast, in timeZone'),
      startTime: clockTime.describe('Wall-clock start in timeZone, like 18:00'),
      endTime: clockTime.describe('Wall-clock end in timeZone, later than startTime'),
      timeZone: z
        .string()
        .refine(isTimeZone, 'must be an IANA time zone such as Europe/Vienna')
        .describe('IANA time zone, such as Europe/Vienna'),
      status: z.enum(['EventScheduled', 'EventCancelled', 'EventPostponed', 'EventRescheduled', 'EventMovedOnline']),
      uid: z.string().regex(/^[\w.-]+@[\w.-]+$/, 'must look like name@domain'),
      updated: utcDateTime.describe('UTC time the date or times last changed; calendar apps use it'),
      recordingUrl: httpsUrl.optional().describe('Where the broadcast can be watched again, shown once it has ended'),
    })
    .refine((event) => event.endTime > event.startTime, { message: 'must be later than startTime', path: ['endTime'] }),
  video: z.object({ placeholder: note, embedUrl: httpsUrl }),
  logo: imageAddress.nullable(),
  heroSlides: z.array(z.object({ image: imageAddress, srcset: srcset.optional(), studio: text })).max(20),
  studios: z
    .array(
      z.object({
        placeholder: note,
        id: z.string().regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and dashes'),
        name: text,
        city: text.describe('The town of its address, in the local form'),
        displayCity: text
          .optional()
          .describe('The city the hero names for it, if not its town (Munich for a studio in Ismaning)'),
        address: text.describe('Street, postal code and town on one line; the page adds the country'),
        street: text,
        postalCode: text,
        countryCode,
        country: retiredCountry,
        localized: perLanguage(studioLocalForm)
          .optional()
          .describe(
            'Name, city, address or displayCity in another language, keyed by language code, where they differ',
          ),
        mapEmbedUrl: httpsUrl,
        mapLinkUrl: httpsUrl,
        siteUrl: httpsUrl,
        picture: z.object({
          src: imageAddress,
          srcset: srcset.optional(),
          width: z.number().int().positive(),
          height: z.number().int().positive(),
        }),
      }),
    )
    .min(1)
    .max(12)
    .refine((studios) => new Set(studios.map((s) => s.id)).size === studios.length, 'studio ids must be unique'),
  company: z.object({
    placeholder: note,
    name: text,
    legalForm: text,
    street: text,
    postalCode: text,
    city: text,
    countryCode,
    country: retiredCountry,
    email: z.email(),
    phone: text,
    website: httpsUrl,
    register: text,
    registerCourt: text,
    vatId: text,
    managingDirectors: text,
    authority: text,
    privacyEmail: z.email(),
  }),
  privacyUpdated: isoDate,
});

export type ContentFile = z.infer<typeof contentSchema>;

/** The event as real values: the instants the calendar entry and structured data use. */
export interface EventFacts {
  start: Date;
  end: Date;
  timeZone: string;
  status: ContentFile['event']['status'];
  uid: string;
  /** When the event's details last changed: the calendar entry's DTSTAMP. */
  updated: Date;
}

export interface SiteContent {
  public: PublicContent;
  event: EventFacts;
  /** The slides and logo the page shows when no backend is configured. */
  heroSlides: HeroSlide[];
  logoUrl: string | null;
  /** Where the file still holds sample values, for the start-up log. */
  placeholders: string[];
  raw: ContentFile;
}

/** Reads and checks the content file once, at start; a bad file throws a ContentError. */
export function loadContent(filePath: string): SiteContent {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(filePath, 'utf8'));
  } catch (error) {
    throw new ContentError(`Content file ${filePath}: ${(error as Error).message}`);
  }
  const parsed = contentSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new ContentError(`Content file ${filePath}: ${field} ${issue.message}`);
  }
  return buildSiteContent(parsed.data);
}

export function buildSiteContent(file: ContentFile): SiteContent {
  const { event } = file;
  const start = zonedTimeToUtc(event.date, event.startTime, event.timeZone);
  const end = zonedTimeToUtc(event.date, event.endTime, event.timeZone);
  const privacyUpdated = new Date(`${file.privacyUpdated}T12:00:00Z`);
  const studios = file.studios.map(
    ({ placeholder: _note, name, city, displayCity, address, localized, ...studio }) => ({
      ...studio,
      byLanguage: byLanguage((language, locale): StudioText => {
        const local = localized?.[language] ?? {};
        return {
          name: local.name ?? name,
          city: local.city ?? city,
          displayCity: local.displayCity ?? displayCity ?? local.city ?? city,
          address: local.address ?? address,
          country: countryName(locale, studio.countryCode)!,
        };
      }),
    }),
  );

  return {
    public: {
      videoEmbedUrl: file.video.embedUrl,
      studios,
      cityList: byLanguage((language, locale) =>
        new Intl.ListFormat(locale, { type: 'conjunction' }).format(studioCities(studios, language)),
      ),
      company: {
        ...withoutNote(file.company),
        country: byLanguage((_language, locale) => countryName(locale, file.company.countryCode)!),
      },
      event: {
        start: start.getTime(),
        end: end.getTime(),
        timeZone: event.timeZone,
        utcOffsetMinutes: {
          start: offsetMs(start.getTime(), event.timeZone) / MINUTE_MS,
          end: offsetMs(end.getTime(), event.timeZone) / MINUTE_MS,
        },
        recordingUrl: event.recordingUrl ?? null,
      },
      eventDisplay: byLanguage((_language, locale) => ({
        date: new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: event.timeZone }).format(start),
        time: new Intl.DateTimeFormat(locale, {
          hour: '2-digit',
          minute: '2-digit',
          timeZoneName: 'short',
          timeZone: event.timeZone,
        }).formatRange(start, end),
      })),
      copyrightYear: Number(event.date.slice(0, 4)),
      privacyUpdated: byLanguage((_language, locale) =>
        new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(privacyUpdated),
      ),
    },
    event: {
      start,
      end,
      timeZone: event.timeZone,
      status: event.status,
      uid: event.uid,
      updated: new Date(event.updated),
    },
    heroSlides: file.heroSlides,
    logoUrl: file.logo,
    placeholders: placeholderFields(file),
    raw: file,
  };
}

/** One value per language, made from the language and its locale. */
function byLanguage<T>(make: (language: Language, locale: string) => T): Record<Language, T> {
  return Object.fromEntries(LANGUAGES.map((lng) => [lng, make(lng, LANGUAGE_LOCALES[lng])])) as Record<Language, T>;
}

/**
 * A country's name in a locale, from its ISO code; undefined for a code no one knows. Computed
 * here, on the server, and sent in the page's data: the browser's own Intl never names it, so
 * no difference between engines can make the hydrated page differ from the server's.
 */
function countryName(locale: string, code: string): string | undefined {
  return new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }).of(code);
}

function withoutNote<T extends { placeholder?: string }>(value: T): Omit<T, 'placeholder'> {
  const { placeholder: _note, ...rest } = value;
  return rest;
}

function placeholderFields(file: ContentFile): string[] {
  const fields: string[] = [];
  if (file.event.placeholder) fields.push('event');
  if (file.video.placeholder) fields.push('video');
  if (file.company.placeholder) fields.push('company');
  file.studios.forEach((studio, i) => studio.placeholder && fields.push(`studios.${i}`));
  return fields;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
