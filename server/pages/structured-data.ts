import type { Company, Studio } from '../../shared/page-data.ts';
import { inLanguage, type Language } from '../../shared/languages.ts';
import type { EventFacts } from '../content/site-content.ts';
import { toZonedIsoString } from '../content/event-time.ts';

export interface EventDescription {
  event: EventFacts;
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
}

/**
 * The event as a schema.org `Event` for search engines: broadcast live from the
 * studios and streamed on the page, hence both kinds of location.
 */
export function eventStructuredData(input: EventDescription): Record<string, unknown> {
  const { event, company } = input;
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: input.name,
    description: input.notice ? `${input.notice} ${input.description}` : input.description,
    inLanguage: input.language,
    url: input.pageUrl,
    ...(input.imageUrl ? { image: [input.imageUrl] } : {}),
    startDate: toZonedIsoString(event.start, event.timeZone),
    endDate: toZonedIsoString(event.end, event.timeZone),
    eventStatus: `https://schema.org/${event.status}`,
    ...(event.previousStart ? { previousStartDate: toZonedIsoString(event.previousStart, event.timeZone) } : {}),
    eventAttendanceMode: 'https://schema.org/MixedEventAttendanceMode',
    location: [
      { '@type': 'VirtualLocation', url: `${input.pageUrl}#rsvp` },
      ...input.studios.map((studio) => ({
        '@type': 'Place',
        name: inLanguage(studio.byLanguage, input.language).name,
        url: studio.siteUrl,
        address: {
          '@type': 'PostalAddress',
          streetAddress: studio.street,
          postalCode: studio.postalCode,
          addressLocality: inLanguage(studio.byLanguage, input.language).city,
          addressCountry: studio.countryCode,
        },
      })),
    ],
    organizer: { '@type': 'Organization', name: company.name, url: company.website },
  };
}
