import type { BroadcastMoment } from './broadcast-texts.ts';
import type { Company, PublicEvent, Studio } from './page-data.ts';
import { inLanguage, type Language } from './languages.ts';
import { chapterFragment, recordingChapters } from './recording.ts';
import { zonedIsoString } from './zoned-time.ts';

export interface EventDescription {
  /** The event as the page shows it: the content file's, with the live state's times and status. */
  event: PublicEvent;
  /** The content file's start, where the live state moves it: the previous start. */
  plannedStart: Pick<PublicEvent, 'start' | 'utcOffsetMinutes'> | null;
  studios: Studio[];
  company: Company;
  language: Language;
  name: string;
  description: string;
  /** The page's own address in its language. */
  pageUrl: string;
  /** Absolute, or null when the page has no image. */
  imageUrl: string | null;
  /** The event team's notice in the page's language, if there is one: it opens the description. */
  notice: string | null;
  /** A programme segment's title in the page's language, by its id. */
  segmentName: (id: string) => string;
  /** The moment of the day: while the broadcast is live, the stream is named as a live broadcast. */
  moment: BroadcastMoment;
  /**
   * The player the page shows (after the end the recording the live state names, else the live
   * state's backup or the content file's video): its address, its placeholder's picture (absolute,
   * or null), and for the recording where it begins in the broadcast.
   */
  stream: { embedUrl: string; pictureUrl: string | null; beginsAtSeconds?: number };
}

/**
 * The event as a schema.org `Event` for search engines: broadcast live from the studios and
 * streamed on the page, hence both kinds of location. The server writes it into the landing page
 * and an open tab rewrites it as the day changes, from the same data.
 */
export function eventStructuredData(input: EventDescription): Record<string, unknown> {
  const { event, plannedStart, company } = input;
  const description = input.notice ? `${input.notice} ${input.description}` : input.description;
  const video =
    input.moment === 'live'
      ? liveBroadcast(input, description)
      : input.moment === 'recording'
        ? recordingVideo(input, description)
        : null;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: input.name,
    description,
    inLanguage: input.language,
    url: input.pageUrl,
    ...(input.imageUrl ? { image: [input.imageUrl] } : {}),
    startDate: zonedIsoString(event.start, event.utcOffsetMinutes.start),
    endDate: zonedIsoString(event.end, event.utcOffsetMinutes.end),
    eventStatus: `https://schema.org/${event.status}`,
    ...(plannedStart
      ? { previousStartDate: zonedIsoString(plannedStart.start, plannedStart.utcOffsetMinutes.start) }
      : {}),
    eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
    location: [
      { '@type': 'VirtualLocation', url: `${input.pageUrl}#rsvp` },
      ...input.studios.map((studio) => place(studio, input.language)),
    ],
    organizer: { '@type': 'Organization', name: company.name, url: company.website },
    ...(event.programme.length > 0 ? { subEvent: segments(input) } : {}),
    ...(video ? { subjectOf: video } : {}),
  };
}

/**
 * The stream while it is live, marked as Google's video guidelines mark a livestream: a
 * `VideoObject` (a name, a picture and a date required) published by a `BroadcastEvent` that is
 * live, from the start to the end.
 */
function liveBroadcast(input: EventDescription, description: string): Record<string, unknown> | null {
  const { event } = input;
  const startDate = zonedIsoString(event.start, event.utcOffsetMinutes.start);
  const video = videoObject(input, description, startDate);
  return (
    video && {
      ...video,
      publication: {
        '@type': 'BroadcastEvent',
        isLiveBroadcast: true,
        startDate,
        endDate: zonedIsoString(event.end, event.utcOffsetMinutes.end),
      },
    }
  );
}

/**
 * The recording after the end, as Google's key moments ask: a `VideoObject` published at the
 * broadcast's end, with a `Clip` for each chapter, its start and end in the recording and the
 * address that opens the page at it.
 */
function recordingVideo(input: EventDescription, description: string): Record<string, unknown> | null {
  const { event } = input;
  const video = videoObject(input, description, zonedIsoString(event.end, event.utcOffsetMinutes.end));
  const chapters = recordingChapters(event, { beginsAtSeconds: input.stream.beginsAtSeconds ?? 0 });
  if (!video || chapters.length === 0) return video;
  const hasPart = chapters.map(({ id, start }, i) => ({
    '@type': 'Clip',
    name: input.segmentName(id),
    startOffset: start,
    ...(chapters[i + 1] ? { endOffset: chapters[i + 1]!.start } : {}),
    url: `${input.pageUrl}#${chapterFragment(id)}`,
  }));
  return { ...video, hasPart };
}

/** The player as a `VideoObject`, its picture the placeholder's, else the page's; with neither, none. */
function videoObject(input: EventDescription, description: string, uploadDate: string): Record<string, unknown> | null {
  const thumbnailUrl = input.stream.pictureUrl ?? input.imageUrl;
  if (!thumbnailUrl) return null;
  return {
    '@type': 'VideoObject',
    name: input.name,
    description,
    thumbnailUrl: [thumbnailUrl],
    uploadDate,
    embedUrl: input.stream.embedUrl,
  };
}

/** The programme's segments that take place, each from its studio, until the next or the end. */
function segments({ event, studios, language, segmentName }: EventDescription): Record<string, unknown>[] {
  const { programme, end, utcOffsetMinutes } = event;
  // The segments are in order: those that take place are the first ones, at their own indexes.
  return programme
    .filter(({ start }) => start < end)
    .map((segment, index) => {
      const studio = studios.find(({ id }) => id === segment.studioId);
      return {
        '@type': 'Event',
        name: segmentName(segment.id),
        startDate: zonedIsoString(segment.start, utcOffsetMinutes.start),
        endDate: zonedIsoString(Math.min(programme[index + 1]?.start ?? end, end), utcOffsetMinutes.end),
        ...(studio ? { location: place(studio, language) } : {}),
      };
    });
}

function place(studio: Studio, language: Language): Record<string, unknown> {
  const { name, city } = inLanguage(studio.byLanguage, language);
  return {
    '@type': 'Place',
    name,
    url: studio.siteUrl,
    address: {
      '@type': 'PostalAddress',
      streetAddress: studio.street,
      postalCode: studio.postalCode,
      addressLocality: city,
      addressCountry: studio.countryCode,
    },
  };
}
