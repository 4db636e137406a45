import type { Language } from './languages.ts';

/** One background slide of the hero: an image and the studio it shows. */
export interface HeroSlide {
  image: string;
  studio: string;
  /** Local slides ship several widths; backend slides have one image. */
  srcset?: string;
}

export interface Picture {
  src: string;
  srcset?: string;
  width: number;
  height: number;
}

export interface Studio {
  id: string;
  name: string;
  city: string;
  country: string;
  /** The address as the page shows it, on one line. */
  address: string;
  /** The same address in parts, for search engines. */
  street: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2, e.g. "AT". */
  countryCode: string;
  /** Address of the embeddable map frame. */
  mapEmbedUrl: string;
  /** Address of the map for a full browser tab (used where frames are not possible). */
  mapLinkUrl: string;
  /** The studio's own site, opened from its card. */
  siteUrl: string;
  picture: Picture;
}

export interface Company {
  name: string;
  legalForm: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  email: string;
  phone: string;
  website: string;
  register: string;
  registerCourt: string;
  vatId: string;
  managingDirectors: string;
  authority: string;
  privacyEmail: string;
}

/** Date and time of the event as shown, per language (formatted once at start-up). */
export interface EventDisplay {
  date: string;
  time: string;
}

/** The event's times and what follows it, for the page's clock. */
export interface PublicEvent {
  /** Start and end, ms since the epoch: the event is live from start (inclusive) to end. */
  start: number;
  end: number;
  /** The IANA zone the content file's times are given in. */
  timeZone: string;
  /**
   * That zone's offset from UTC at the start and at the end, in minutes east: the browser
   * compares its own offsets with these, which needs no Intl formatter.
   */
  utcOffsetMinutes: { start: number; end: number };
  /** Where the broadcast can be watched again once it is over, if anywhere. */
  recordingUrl: string | null;
}

/** The part of the content file the browser needs: nothing secret, nothing the page does not show. */
export interface PublicContent {
  videoEmbedUrl: string;
  studios: Studio[];
  company: Company;
  event: PublicEvent;
  eventDisplay: Record<Language, EventDisplay>;
  /** The year the copyright line names. */
  copyrightYear: number;
  /** When the privacy policy was last updated, shown per language. */
  privacyUpdated: Record<Language, string>;
}

/** The hero's assets: `heroSlides` is null while unknown, `logoUrl` null when there is no logo. */
export interface PageAssets {
  heroSlides: HeroSlide[] | null;
  logoUrl: string | null;
}
