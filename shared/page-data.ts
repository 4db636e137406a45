import type { EmbedProvider } from './embeds.ts';
import type { EventStatus } from './event-clock.ts';
import { inLanguage, type Language, type LanguageInfo } from './languages.ts';

/**
 * A `<source>` of the hero's `<picture>`: the photo in a modern format, or cropped for portrait
 * screens, at several widths.
 */
export interface PictureSource {
  srcset: string;
  /** The width the picture is shown at, for choosing among the srcset's widths. */
  sizes: string;
  /** The format's MIME type, which a browser that cannot show it skips. */
  type?: string;
  /** The screens a crop is for. */
  media?: string;
}

/** A background image of the hero. */
interface SlideImage {
  /** Null where there is no picture of the slide (not yet made, or its photo unusable): the hero's gradient shows. */
  image: string | null;
  /** The content file's slides ship several widths; the server makes them of the backend's photos. */
  srcset?: string;
  /** With `srcset`: the width the image is shown at (the whole viewport when not given). */
  sizes?: string;
  /** Pictures the server made: what a `<picture>` offers before the image. */
  sources?: PictureSource[];
}

/** One slide as /api/hero-slides answers it, and as the backend sends it: an image and its studio's name. */
export interface HeroSlide extends SlideImage {
  studio: string;
}

/** A slide of the content file: its studio named by id, so that the page shows that studio's name in its language. */
export interface StudioSlide extends SlideImage {
  studioId: string;
}

/** A slide as the page carries it: from the content file (by studio id) or from the backend (with the backend's label). */
export type PageSlide = HeroSlide | StudioSlide;

export interface Picture {
  src: string;
  srcset?: string;
  width: number;
  height: number;
}

/** What a studio's card, the picker and the hero show of it in one language. */
export interface StudioText {
  name: string;
  /** The town of its address. */
  city: string;
  /** The city the hero names for it, which may not be its town: Munich for a studio in Ismaning. */
  displayCity: string;
  /** The address as the page shows it, on one line, without the country. */
  address: string;
  /** The country's name in this language, from `countryCode`. */
  country: string;
}

export interface Studio {
  id: string;
  /** Name, city, address and country in each language: the content's local form where it gives no other. */
  byLanguage: Record<Language, StudioText>;
  /** The street and postal code of its address, for search engines. */
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
  /** ISO 3166-1 alpha-2, e.g. "AT". */
  countryCode: string;
  /** The country's name in each language, from `countryCode`. */
  country: Record<Language, string>;
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
  /**
   * When each of the programme's segments begins, as the programme shows it; absent from the live
   * state of a replica of the release before the programme (during a rolling update).
   */
  programme?: string[];
}

/** The event's times and what follows it, for the page's clock. */
export interface PublicEvent {
  /** Start and end, ms since the epoch: the event is live from start (inclusive) to end. */
  start: number;
  end: number;
  /** The IANA zone the content file's times are given in. */
  timeZone: string;
  /** Whether it takes place as announced: a cancelled or postponed event shows no clock. */
  status: EventStatus;
  /**
   * That zone's offset from UTC at the start and at the end, in minutes east: the browser
   * compares its own offsets with these, which needs no Intl formatter.
   */
  utcOffsetMinutes: { start: number; end: number };
  /** Where the broadcast can be watched again once it is over, if anywhere. */
  recordingUrl: string | null;
  /** The run of show, in its order; empty where the content file has none. The day's times move it. */
  programme: readonly ProgrammeSegment[];
}

/** One segment of the programme. */
export interface ProgrammeSegment {
  /** Names its texts: `programme.segments.<id>.title`, and `.description` where it has one. */
  id: string;
  /** When it begins, ms since the epoch; it ends where the next begins, the last with the broadcast. */
  start: number;
  studioId: string;
}

/** The live stream's player and what stands in its place until it loads. */
export interface PublicVideo {
  /** The player's address as the content file gives it. */
  embedUrl: string;
  /** Where the stream is watched at the provider: the link shown without scripts. */
  watchUrl: string;
  provider: EmbedProvider;
  /** The picture of the placeholder, from this site; null where the content has none of this site's. */
  poster: { src: string; srcset?: string } | null;
}

/** The broadcast's recording, named on the day: a player as the stream's, with where it begins. */
export interface PublicRecording extends PublicVideo {
  /** The moment of the broadcast the recording begins at, in seconds: where its beginning was trimmed. */
  beginsAtSeconds: number;
}

/** The part of the content file the browser needs: nothing secret, nothing the page does not show. */
export interface PublicContent {
  /** The languages offered, in the content file's order: the first is the default. */
  languages: LanguageInfo[];
  video: PublicVideo;
  /** The recording where the content file names it ahead; one the live state names takes its place. */
  recording: PublicRecording | null;
  /** Whether a recording will follow: until one is named, the page says so after the end. */
  recordingPlanned: boolean;
  /** Who serves the studios' maps. */
  mapProvider: EmbedProvider;
  studios: Studio[];
  /**
   * The studios' cities in running text, per language ("Munich, Marbella, Vienna and Zurich"):
   * what `{{cities}}` stands for in the texts.
   */
  cityList: Record<Language, string>;
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
  heroSlides: PageSlide[] | null;
  logoUrl: string | null;
  /**
   * The CSS pixels a logo picture made by this server is shown at, when smaller than the page's
   * 72 px high: at most half its pixels, so that it stays sharp on a phone's screen. Absent, the
   * logo is shown 72 px high.
   */
  logoSize?: { width: number; height: number };
}

/** The studio a slide shows, as the hero names it in `language`; null for an id no studio has. */
export function slideStudioName(slide: PageSlide, studios: readonly Studio[], language: Language): string | null {
  if ('studio' in slide) return slide.studio;
  const studio = studios.find(({ id }) => id === slide.studioId);
  return studio ? inLanguage(studio.byLanguage, language).name : null;
}

/** The cities the hero names, in the studios' order, each once. */
export function studioCities(studios: readonly Studio[], language: Language): string[] {
  return [...new Set(studios.map((studio) => inLanguage(studio.byLanguage, language).displayCity))];
}

/** A studio's address on one line, ending with its country, as the page shows it. */
export function addressLine(text: StudioText): string {
  return `${text.address}, ${text.country}`;
}
