import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  describeIssues,
  fieldName,
  firstAndCount,
  formatFinding,
  nearestName,
  quoted,
  type Finding,
} from './findings.ts';
import { parseJsonSource, type JsonSource } from './json-source.ts';
import { ASSIGNED_COUNTRY_CODES } from './country-codes.ts';
import {
  embedStandInWarning,
  watchAddress,
  MAP_EMBED_PATTERN,
  mapEmbedProblem,
  VIDEO_EMBED_PATTERN,
  videoEmbedProblem,
} from './embed-addresses.ts';
import {
  studioCities,
  type PublicContent,
  type PublicRecording,
  type PublicVideo,
  type StudioSlide,
  type StudioText,
} from '../../shared/page-data.ts';
import { EMBED_LOADS, type EmbedProvider } from '../../shared/embeds.ts';
import { LANGUAGE_CODE_PATTERN, type Language, type LanguageInfo } from '../../shared/languages.ts';
import { LOCALES_DIR } from '../config/paths.ts';
import { readLanguages } from './languages.ts';
import { EVENT_STATUSES } from '../../shared/event-clock.ts';
import { isTimeZone, plannedSeconds, zonedTimeToUtc } from './event-time.ts';
import { eventDisplayIn, utcOffsetMinutes } from './event-display.ts';
import { slideStudioProblems } from './slide-studios.ts';
import { programmeProblems } from './programme.ts';
import { lengthProblem, TEXT_LIMITS } from './text-limits.ts';

/** The content file is unusable: every problem, each a line naming the file, the line and the field. */
export class ContentError extends Error {
  override name = 'ContentError';
  constructor(readonly problems: readonly string[]) {
    super(firstAndCount(problems, 'npm run check:content lists them all'));
  }
}

/** SPEC.md's four studios: the page's grid, picker and hero are laid out for exactly this many. */
export const STUDIO_COUNT = 4;
/** The most segments a programme lists: an evening's run of show, not a festival's. */
export const PROGRAMME_LIMIT = 30;

const text = z.string().trim().min(1).max(500);
/**
 * A text the hero shows: at most `limit` characters (server/content/text-limits.ts), told with its
 * length ("has 61 characters, at most 60"); the editor's JSON Schema states the limit as maxLength.
 */
const heroText = (limit: number) =>
  z
    .string()
    .trim()
    .min(1)
    .superRefine(refuseWith((value) => lengthProblem(value, limit)))
    .meta({ maxLength: limit });
const studioName = heroText(TEXT_LIMITS.studioName);
const cityName = heroText(TEXT_LIMITS.city);
const note = z.string().optional().describe('A note for editors that this object still holds sample values');

export const httpsUrl = z
  .string()
  .regex(/^https:\/\//i, 'must be an absolute https:// address')
  .refine((value) => parseUrl(value)?.protocol === 'https:', 'must be an absolute https:// address');
/** A file under public/ ("/images/a.jpg") or an https:// address. */
const imageAddress = z
  .string()
  .regex(/^(\/(?![/\\])|https:\/\/)/i, 'must start with "/" or https://')
  .refine(
    (value) => /^\/(?![/\\])/.test(value) || parseUrl(value)?.protocol === 'https:',
    'must start with "/" or https://',
  );
/** A file under public/ ("/images/a.jpg"): served by this site, so showing it tells no one else of the visit. */
const siteImage = z.string().regex(/^\/(?![/\\])/, 'must be a file of this site, starting with "/"');
const srcset = z
  .string()
  .refine(
    (value) => value.split(',').every((candidate) => /^\S+ \d+w$/.test(candidate.trim())),
    'must list "<address> <width>w" entries',
  );

/** Formats JSON Schema can state too (content/event.schema.json); the calendar is the check's alone. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const TIME_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d$';
export const UTC_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\dZ$';
export const TIME_ZONE_PATTERN = '^(UTC|[A-Z][A-Za-z_]*(/[A-Z0-9][A-Za-z0-9_+-]*)+)$';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2027-03-18')
  .refine(isCalendarDate, 'is not a date in the calendar')
  .meta({ format: 'date' });
const clockTime = z
  .string()
  .regex(/^\d{2}:\d{2}$/, 'must be a time like 18:00')
  .regex(new RegExp(TIME_PATTERN), 'is not a time of day (00:00 to 23:59)');
const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be a two-letter country code like AT')
  // Checked only in the right shape: the other is told above.
  .superRefine(refuseWith((code) => (/^[A-Z]{2}$/.test(code) ? countryCodeProblem(code) : null)))
  .describe('ISO 3166-1 alpha-2 code, like AT; the page names the country in its own language');

/** The hand-kept country name of earlier files: refused, so that no page shows the country twice. */
const retiredCountry = z
  .never({ error: 'is no longer used: countryCode names the country; remove it (and the country from address)' })
  .optional()
  .describe('No longer used: countryCode names the country in the page’s language');

/** What a studio is called and where it is in one language, where that differs from the local form. */
const studioLocalForm = z
  .strictObject({
    name: studioName.optional(),
    city: cityName.optional(),
    address: text.optional(),
    displayCity: cityName.optional(),
  })
  .describe('Only the fields that differ from the local form');

const STUDIO_ID_PATTERN = /^[a-z0-9-]+$/;
const studioId = z.string().regex(STUDIO_ID_PATTERN, 'must be lower-case letters, digits and dashes');

/** One background image of the hero and the studio it shows, named by id (the check says which ids there are). */
const heroSlide = z.strictObject({
  image: imageAddress,
  srcset: srcset.optional(),
  studio: z
    .string()
    .meta({ pattern: STUDIO_ID_PATTERN.source })
    .describe('The id of the studio it shows, as in studios; the hero names that studio in the page’s language'),
});

/** One part of the broadcast, from its studio: its texts are the locale files', under programme.segments.<id>. */
const programmeSegment = z.strictObject({
  id: z
    .string()
    .regex(STUDIO_ID_PATTERN, 'must be lower-case letters, digits and dashes')
    .describe('Names its title and description in each locale file: programme.segments.<id>'),
  start: clockTime.describe(
    'When it begins, on the event’s wall clock like 18:20; it ends where the next begins, the last with the broadcast',
  ),
  studio: z
    .string()
    .meta({ pattern: STUDIO_ID_PATTERN.source })
    .describe('The id of the studio it comes from, as in studios'),
});

export const languageCode = z
  .string()
  .regex(LANGUAGE_CODE_PATTERN, 'is not a language code such as "fr" or "pt-BR"')
  .meta({ pattern: LANGUAGE_CODE_PATTERN.source });

/** Keyed by language code ("en"); a language not named shows the local form. */
const perLanguage = <T extends z.ZodType>(form: T) => z.record(languageCode, form);

const utcDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'must be a UTC date and time like 2026-11-01T09:00:00Z')
  .regex(new RegExp(UTC_DATE_TIME_PATTERN), 'is not a time of day (00:00:00 to 23:59:59)')
  .refine((value) => isCalendarDate(value.slice(0, 10)), 'is not a date in the calendar')
  .meta({ format: 'date-time' });

/** Who serves a frame, named on its placeholder and in the privacy policy, and when the frame loads. */
const embedProvider = z
  .strictObject({
    name: text.describe(
      'The provider as visitors know it ("YouTube", "Google Maps"), named on the button that loads it',
    ),
    privacyUrl: httpsUrl.describe('The provider’s privacy policy, linked from the placeholder'),
    load: z
      .enum(EMBED_LOADS)
      .optional()
      .describe(
        '"on-click" (the default): nothing reaches the provider before the visitor clicks; "at-once": the frame loads once the page has hydrated',
      ),
  })
  .describe('The provider of these frames');

/** The content file's shape and rules; also the source of its JSON Schema (content/event.schema.json). */

/** What the file-wide checks read: slides by studio, studios by id and names, the languages. */
const crossCheckedParts = z.object({
  languages: z.array(z.string()),
  heroSlides: z.array(z.object({ studio: z.string() })),
  studios: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      city: z.string(),
      displayCity: z.string().optional(),
      localized: z
        .record(
          z.string(),
          z.object({ name: z.string().optional(), city: z.string().optional(), displayCity: z.string().optional() }),
        )
        .optional(),
    }),
  ),
});

/** A moment of the broadcast as the team writes it on a phone: 4:30, 0:04:30, 1:02:03. */
export const BROADCAST_MOMENT = /^(?:(\d{1,2}):)?([0-5]?\d):([0-5]\d)$/;

/** Seconds into the broadcast of a moment the schema took. */
export function broadcastSeconds(moment: string): number {
  const [, hours = '0', minutes = '0', seconds = '0'] = BROADCAST_MOMENT.exec(moment.trim()) ?? [];
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** A player's address: the stream's, a backup stream's, the recording's. */
export const playerEmbedUrl = httpsUrl
  .superRefine(refuseWith(videoEmbedProblem))
  .meta({ pattern: VIDEO_EMBED_PATTERN });

/** The recording: a player in the forms of the video's, and where it was trimmed (the content file's, or the live state's). */
export const recordingFields = z.strictObject({
  embedUrl: playerEmbedUrl.describe('The recording player’s address, in the forms of video.embedUrl'),
  beginsAt: z
    .string()
    .trim()
    .regex(BROADCAST_MOMENT, 'must be a moment of the broadcast like 0:04:30 (hours, minutes, seconds) or 4:30')
    .meta({ pattern: BROADCAST_MOMENT.source })
    .optional()
    .describe(
      'Where the recording was trimmed: the moment of the broadcast it begins at, like 0:04:30; none: at the start',
    ),
});

/** What the recording's check reads: the event's times and where the recording begins. */
const recordingCheckedParts = z.object({
  event: z.object({
    date: z.string().regex(new RegExp(DATE_PATTERN)),
    startTime: z.string().regex(new RegExp(TIME_PATTERN)),
    endTime: z.string().regex(new RegExp(TIME_PATTERN)),
    timeZone: z.string().refine(isTimeZone),
  }),
  video: z.object({ recording: z.object({ beginsAt: z.string().regex(BROADCAST_MOMENT).optional() }).optional() }),
});

/** What the programme's checks read: the event's times, the segments, the studios' ids and names. */
const programmeCheckedParts = z.object({
  event: z.object({ startTime: z.string(), endTime: z.string() }),
  programme: z.array(z.object({ id: z.string(), start: z.string(), studio: z.string() })).optional(),
  studios: crossCheckedParts.shape.studios,
});

export const contentSchema = z
  .strictObject({
    $schema: z.string().optional(),
    placeholder: note,
    languages: z
      .array(languageCode)
      .min(1, 'must list at least one language')
      .superRefine((codes, ctx) => {
        codes.forEach((code, index) => {
          const first = codes.indexOf(code);
          if (first < index) ctx.addIssue({ code: 'custom', path: [index], message: `is already languages.${first}` });
        });
      })
      .describe(
        "The languages offered, in the pickers' order; the first is the default. Each needs a folder locales/<code>/",
      ),
    event: z
      .strictObject({
        placeholder: note,
        date: isoDate.describe('The day of the broadcast, in timeZone'),
        startTime: clockTime.describe('Wall-clock start in timeZone, like 18:00'),
        endTime: clockTime.describe('Wall-clock end in timeZone, later than startTime'),
        timeZone: z
          .string()
          .regex(new RegExp(TIME_ZONE_PATTERN), 'is not an IANA time zone such as Europe/Vienna')
          .superRefine(refuseWith(timeZoneProblem))
          .describe('IANA time zone, such as Europe/Vienna'),
        status: z.enum(EVENT_STATUSES),
        uid: z.string().regex(/^[\w.-]+@[\w.-]+$/, 'must look like name@domain'),
        updated: utcDateTime.describe('UTC time the date or times last changed; calendar apps use it'),
        recordingUrl: httpsUrl.optional().describe('Where the broadcast can be watched again, shown once it has ended'),
      })
      .superRefine((event, ctx) => {
        const times = new RegExp(TIME_PATTERN);
        if (times.test(event.startTime) && times.test(event.endTime) && event.endTime <= event.startTime)
          ctx.addIssue({
            code: 'custom',
            path: ['endTime'],
            message: `must be later than event.startTime "${event.startTime}" (an event ends by midnight of its date)`,
          });
      }),
    video: z.strictObject({
      placeholder: note,
      embedUrl: playerEmbedUrl.describe(
        'The player address: https://www.youtube-nocookie.com/embed/<id>?controls=0 or Vimeo’s player',
      ),
      provider: embedProvider,
      poster: z
        .strictObject({ src: siteImage, srcset: srcset.optional() })
        .optional()
        .describe(
          'The picture shown in the player’s place until it loads; by default the first hero slide of this site',
        ),
      recording: recordingFields
        .optional()
        .describe(
          'The broadcast’s recording where its address is known ahead (a provider that publishes it at the stream’s): shown in the stream’s place once the broadcast has ended; one the live state names takes its place',
        ),
      recordingPlanned: z
        .boolean()
        .optional()
        .describe(
          'Whether a recording of the broadcast will follow on this page: after the end, until the recording is named, the stream section says so',
        ),
    }),
    maps: z.strictObject({ provider: embedProvider }).describe('The studios’ map frames'),
    logo: imageAddress
      .nullable()
      .optional()
      .describe(
        'An image of the event’s own, used as it is; without one the sample’s mark is drawn with the name (`product`) in the page’s language',
      ),
    heroSlides: z.array(heroSlide).max(20),
    studios: z
      .array(
        z.strictObject({
          placeholder: note,
          id: studioId,
          name: studioName,
          city: cityName.describe('The town of its address, in the local form'),
          displayCity: cityName
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
          mapEmbedUrl: httpsUrl
            .superRefine(refuseWith(mapEmbedProblem))
            .meta({ pattern: MAP_EMBED_PATTERN })
            .describe('The map provider’s embed address, such as https://www.google.com/maps?q=<address>&output=embed'),
          mapLinkUrl: httpsUrl,
          siteUrl: httpsUrl,
          picture: z.strictObject({
            src: imageAddress,
            srcset: srcset.optional(),
            width: z.number().int().positive(),
            height: z.number().int().positive(),
          }),
        }),
      )
      .meta({ minItems: STUDIO_COUNT, maxItems: STUDIO_COUNT })
      .superRefine((studios, ctx) => {
        if (studios.length !== STUDIO_COUNT)
          ctx.addIssue({
            code: 'custom',
            message: `lists ${studios.length} ${studios.length === 1 ? 'studio' : 'studios'}; the page has exactly ${STUDIO_COUNT}`,
          });
        studios.forEach((studio, index) => {
          const first = studios.findIndex((other) => other?.id === studio?.id);
          if (first < index)
            ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `is already the id of studios.${first}` });
        });
      }),
    programme: z
      .array(programmeSegment)
      .max(PROGRAMME_LIMIT)
      .optional()
      .describe(
        'The run of show, in its order: each segment’s start and studio. Without it the page has no programme section',
      ),
    company: z.strictObject({
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
  })
  .superRefine(
    (file, ctx) => {
      for (const { index, message } of slideStudioProblems(file.heroSlides, file.studios))
        ctx.addIssue({ code: 'custom', path: ['heroSlides', index, 'studio'], message });
      // A localized form for a language that is not offered would never be shown.
      file.studios.forEach((studio, index) => {
        for (const code of Object.keys(studio.localized ?? {})) {
          if (!file.languages.includes(code))
            ctx.addIssue({
              code: 'custom',
              path: ['studios', index, 'localized', code],
              message: `is a language that languages does not list (${file.languages.join(', ')})`,
            });
        }
      });
    },
    // Told with every other problem: these checks run whenever the parts they read are well formed.
    { when: ({ value }) => crossCheckedParts.safeParse(value).success },
  )
  .superRefine(
    ({ event, video }, ctx) => {
      const beginsAt = video.recording?.beginsAt;
      if (beginsAt === undefined) return;
      if (broadcastSeconds(beginsAt) >= plannedSeconds(event))
        ctx.addIssue({
          code: 'custom',
          path: ['video', 'recording', 'beginsAt'],
          message: `is not within the broadcast, from event.startTime to event.endTime: the recording begins at a moment of the broadcast`,
        });
    },
    { when: ({ value }) => recordingCheckedParts.safeParse(value).success },
  )
  .superRefine(
    ({ event, programme = [], studios }, ctx) => {
      const tell = (index: number, field: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: ['programme', index, field], message });
      for (const { index, message } of slideStudioProblems(programme, studios)) tell(index, 'studio', message);
      const isTime = (value: string) => new RegExp(TIME_PATTERN).test(value);
      for (const { index, field, message } of programmeProblems({ event, programme, isTime }))
        tell(index, field, message);
    },
    { when: ({ value }) => programmeCheckedParts.safeParse(value).success },
  );

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
  /** The calendar entry's revision (SEQUENCE): 0 for the content file's plan. */
  sequence: number;
  /** The planned start, where the live state moves it (the JSON-LD's previousStartDate). */
  previousStart?: Date;
}

export interface SiteContent {
  public: PublicContent;
  event: EventFacts;
  /** The slides and logo the page shows when no backend is configured. */
  heroSlides: StudioSlide[];
  logoUrl: string | null;
  /** Where the file still holds sample values, for the start-up log. */
  placeholders: string[];
  raw: ContentFile;
}

/** What checking a content file found: the content when it is usable, its problems, and its warnings. */
export interface ContentCheck {
  content: SiteContent | null;
  problems: Finding[];
  warnings: Finding[];
}

/**
 * Checks a content file's text: every problem at once, each on its field's line, a syntax error
 * included (the rest of the file is read past it). Its languages' locale files are named as
 * `localesShown` (the folder as the operator gave it).
 */
export function checkContentText(
  text: string,
  now = Date.now(),
  localesDir = LOCALES_DIR,
  localesShown = 'locales',
): ContentCheck {
  const source = parseJsonSource(text);
  const problems = [...source.problems];
  const { warnings } = source;
  const parsed = contentSchema.safeParse(source.value);
  if (!parsed.success && source.value !== undefined)
    problems.push(...describeIssues(parsed.error.issues, source, contentSchema));
  // Each listed language is described by its own locale file: a problem there is told on the
  // language's line here, with the locale file's own line.
  const listed = listedLanguages(source.value);
  const { languages, problems: languageProblems } = readLanguages(localesDir, listed, localesShown);
  for (const { code, message } of languageProblems) {
    const index = (source.value as { languages: unknown[] }).languages.indexOf(code);
    problems.push({ line: source.lineOf(['languages', index]), message: `languages.${index} "${code}": ${message}` });
  }
  if (!parsed.success || problems.length > 0)
    return { content: null, problems: problems.sort((a, b) => a.line - b.line), warnings };
  const content = buildSiteContent(parsed.data, languages);
  return { content, problems: [], warnings: [...warnings, ...contentWarnings(content, source, now)] };
}

/**
 * The language codes a content file's text lists, as far as it can be read (for checking the
 * translations beside a content file that has problems of its own); empty when it lists none.
 */
export function listedLanguageCodes(text: string): string[] {
  return listedLanguages(parseJsonSource(text).value);
}

/**
 * The ids of the segments a content file's text lists, as far as it can be read (for checking
 * their titles beside a content file that has problems of its own); empty when it lists none.
 */
export function listedSegmentIds(text: string): string[] {
  const programme = (parseJsonSource(text).value as { programme?: unknown } | null | undefined)?.programme;
  if (!Array.isArray(programme)) return [];
  const ids = programme
    .map((segment) => (segment as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string' && STUDIO_ID_PATTERN.test(id));
  return [...new Set(ids)];
}

/** The well-formed language codes of a content file's value, each once, in its order. */
function listedLanguages(file: unknown): string[] {
  const listed = (file as { languages?: unknown } | null | undefined)?.languages;
  if (!Array.isArray(listed)) return [];
  const codes = listed.filter((code): code is string => typeof code === 'string' && LANGUAGE_CODE_PATTERN.test(code));
  return [...new Set(codes)];
}

/**
 * Reads and checks the content file once, at start; a bad file throws a ContentError naming
 * `displayPath` (the path as the editor or operator gave it).
 */
export function loadContent(
  filePath: string,
  displayPath = filePath,
  localesDir = LOCALES_DIR,
  localesShown = 'locales',
): SiteContent {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    throw new ContentError([
      `${displayPath}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  }
  const checked = checkContentText(text, Date.now(), localesDir, localesShown);
  if (!checked.content) throw new ContentError(checked.problems.map((problem) => formatFinding(displayPath, problem)));
  return checked.content;
}

/** What is allowed but likely a mistake: an event that is over, sample values left in. */
function contentWarnings(content: SiteContent, source: JsonSource, now: number): Finding[] {
  const warnings: Finding[] = [];
  if (content.event.end.getTime() < now) {
    const path = ['event', 'date'];
    warnings.push({
      line: source.lineOf(path),
      message: `${fieldName(path)}${quoted(content.raw.event.date)} has passed: the page shows the broadcast as over`,
    });
  }
  const embeds: [(string | number)[], string][] = [
    [['video', 'embedUrl'], content.raw.video.embedUrl],
    ...content.raw.studios.map(({ mapEmbedUrl }, index): [(string | number)[], string] => [
      ['studios', index, 'mapEmbedUrl'],
      mapEmbedUrl,
    ]),
  ];
  for (const [path, address] of embeds) {
    const standIn = embedStandInWarning(address);
    if (standIn)
      warnings.push({ line: source.lineOf(path), message: `${fieldName(path)}${quoted(address)} ${standIn}` });
  }
  for (const field of content.placeholders) {
    const path = [...field.split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key)), 'placeholder'];
    warnings.push({
      line: source.lineOf(path),
      message: `${field} still holds sample values (its "placeholder" note)`,
    });
  }
  return warnings.sort((a, b) => a.line - b.line);
}

export function buildSiteContent(file: ContentFile, languages: LanguageInfo[]): SiteContent {
  const byLanguage = <T>(make: (language: Language, locale: string) => T) => valuesByLanguage(languages, make);
  const { event } = file;
  const start = zonedTimeToUtc(event.date, event.startTime, event.timeZone);
  const end = zonedTimeToUtc(event.date, event.endTime, event.timeZone);
  const privacyUpdated = new Date(`${file.privacyUpdated}T12:00:00Z`);
  const programme = (file.programme ?? []).map((segment) => ({
    id: segment.id,
    start: zonedTimeToUtc(event.date, segment.start, event.timeZone).getTime(),
    studioId: segment.studio,
  }));
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
      languages,
      video: publicVideo(file),
      recording: file.video.recording ? publicRecording(file.video.recording, publicVideo(file)) : null,
      recordingPlanned: file.video.recordingPlanned ?? false,
      mapProvider: publicProvider(file.maps.provider),
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
        status: event.status,
        utcOffsetMinutes: utcOffsetMinutes(start, end, event.timeZone),
        recordingUrl: event.recordingUrl ?? null,
        programme,
      },
      eventDisplay: byLanguage((_language, locale) =>
        eventDisplayIn(
          locale,
          start,
          end,
          event.timeZone,
          programme.map((segment) => segment.start),
        ),
      ),
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
      sequence: 0,
    },
    heroSlides: file.heroSlides.map(({ studio, ...slide }) => ({ ...slide, studioId: studio })),
    logoUrl: file.logo ?? null,
    placeholders: placeholderFields(file),
    raw: file,
  };
}

function publicVideo({ video, heroSlides, studios }: ContentFile): PublicVideo {
  const local = (src: string) => siteImage.safeParse(src).success;
  const slide = heroSlides.find(({ image }) => local(image));
  const picture = studios.map((studio) => studio.picture).find(({ src }) => local(src));
  const fallback = slide
    ? { src: slide.image, srcset: slide.srcset }
    : picture && { src: picture.src, srcset: picture.srcset };
  const poster = video.poster ?? fallback ?? null;
  return {
    embedUrl: video.embedUrl,
    watchUrl: watchAddress(video.embedUrl),
    provider: publicProvider(video.provider),
    poster: poster && {
      src: poster.src,
      // Only where the file gives one: a field that is undefined would not survive the page's JSON.
      ...(poster.srcset ? { srcset: poster.srcset } : {}),
    },
  };
}

/** The recording as the page shows it: the video's provider and placeholder picture, its own addresses. */
export function publicRecording(
  { embedUrl, beginsAt }: { embedUrl: string; beginsAt?: string | undefined },
  video: PublicVideo,
): PublicRecording {
  return {
    ...video,
    embedUrl,
    watchUrl: watchAddress(embedUrl),
    beginsAtSeconds: beginsAt === undefined ? 0 : broadcastSeconds(beginsAt),
  };
}

function publicProvider(provider: ContentFile['video']['provider']): EmbedProvider {
  return { name: provider.name, privacyUrl: provider.privacyUrl, load: provider.load ?? 'on-click' };
}

/** One value per language, made from the language and its locale. */
export function valuesByLanguage<T>(
  languages: readonly LanguageInfo[],
  make: (language: Language, locale: string) => T,
): Record<Language, T> {
  return Object.fromEntries(languages.map(({ code, locale }) => [code, make(code, locale)]));
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

/** A date the calendar has: 2027-02-28, not 2027-02-30 (which Date.parse would move to 2 March). */
function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A zod refinement that refuses a value with the words `problemOf` finds for it, if any. */
export function refuseWith(problemOf: (value: string) => string | null) {
  return (value: string, ctx: z.RefinementCtx<string>) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  };
}

/** A code ISO has not assigned; one that Intl knows under a country's name is told that country's code. */
function countryCodeProblem(code: string): string | null {
  if (ASSIGNED_COUNTRY_CODES.has(code)) return null;
  const name = countryName('en', code);
  const same = name && [...ASSIGNED_COUNTRY_CODES].find((assigned) => countryName('en', assigned) === name);
  return `is not an ISO 3166-1 country code${same ? `; did you mean ${same}?` : ' (two letters such as AT, DE or GB)'}`;
}

/** A zone Intl does not know, told with the IANA name nearest to it. */
function timeZoneProblem(zone: string): string | null {
  if (isTimeZone(zone)) return null;
  const nearest = nearestName(zone, [...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return `is not an IANA time zone${nearest ? `; did you mean ${nearest}?` : ' such as Europe/Vienna'}`;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
