import type { EngineName } from '../../../scripts/harness/browser-engines.ts';
import type { VisitorLine } from './line.ts';

export { ENGINE_NAMES, type EngineName } from '../../../scripts/harness/browser-engines.ts';

export interface Viewport {
  width: number;
  height: number;
}

/** What a visitor's browser is like, fixed before its first page. */
export interface BrowserSettings {
  viewport?: Viewport;
  /** Device pixels per CSS pixel; 1 unless given. */
  deviceScaleFactor?: number;
  /**
   * false: the browser runs no script of the page at all. Functions the test runs in the page
   * still run in every engine, but in Firefox a promise made there never settles: keep them synchronous.
   */
  javaScript?: boolean;
  /** The system setting behind `prefers-reduced-motion: reduce`. */
  reducedMotion?: boolean;
  /** The system's time zone, an IANA name. */
  timeZone?: string;
}

/** Something a visitor's console would show: an error or warning, an uncaught error, a blocked load. */
export interface Problem {
  kind: 'error' | 'warning' | 'uncaught' | 'csp';
  text: string;
  /** The address of the script, document or resource concerned, where known. */
  url: string;
}

/** The keys the journeys press. */
export type Key = 'ArrowDown' | 'ArrowUp' | 'Enter' | 'Tab';

/** A function the page runs; it is sent as source text, so it may use only what the page has. */
export type PageFunction<A, R> = (arg: A) => R | Promise<R>;

/**
 * One visitor's tab, the same in every engine. Addresses are paths on the site; the engine
 * modules turn them into whatever their browser needs.
 */
export interface BrowserTab {
  /** Opens a path as a new document; the status is the server's answer to it. */
  goto(path: string): Promise<{ status: number }>;
  reload(): Promise<void>;
  back(): Promise<void>;
  /** Runs a function in the page and returns its (JSON-able) result, awaiting a promise. */
  evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R>;
  /** A visitor's click on the first element the selector matches, scrolled into view. */
  click(selector: string): Promise<void>;
  /** A key pressed on the element (focused first), or on whatever has the focus when null. */
  press(selector: string | null, key: Key): Promise<void>;
  setViewport(viewport: Viewport): Promise<void>;
  /** The value of a cookie the browser holds for the site. */
  cookie(name: string): Promise<string | undefined>;
  /** Runs in every document the tab opens from now on, before any of the page's scripts. */
  addInitScript<A>(fn: PageFunction<A, void>, arg: A): Promise<void>;
  /** Errors, warnings, uncaught errors and blocked loads since the tab opened, in every document. */
  problems(): Promise<Problem[]>;
  screenshot(): Promise<Buffer>;
  /**
   * Runs the page's scripts this many times slower, as on a slow phone, where the engine can
   * (Chromium); false where it cannot.
   */
  slowDownCpu(rate: number): Promise<boolean>;
  /**
   * Makes the browser ask to spare data (`navigator.connection.saveData`, the `Save-Data`
   * setting), where the engine can (Chromium); false where it cannot.
   */
  askToSaveData(): Promise<boolean>;
  /**
   * Brings the tab to the front, as a visitor switching to it: its page becomes visible. Where a
   * browser keeps its visitors' tabs in one window (Firefox), only the front one is.
   */
  show(): Promise<void>;
  close(): Promise<void>;
}

/** A launched engine: it opens tabs for visitors, each with its own cookies and storage. */
export interface Engine {
  readonly name: EngineName;
  /** The browser's name and version, as the contributor's guide's support line gives them. */
  readonly version: string;
  /**
   * A new visitor reaching the site through its own line (line.ts); the language cookie is set
   * before the first page when given.
   */
  open(line: VisitorLine, settings: BrowserSettings & { language?: string }): Promise<BrowserTab>;
  /**
   * WebKit only: the errors and warnings the engine itself writes while it loads the address
   * until the page has hydrated, with no driver attached (MiniBrowser's setting that writes the
   * console out, which it does not apply under WebDriver). They include messages no script in the
   * page can see.
   */
  consoleOfPlainVisit?(url: string): Promise<Problem[]>;
  close(): Promise<void>;
}
