import type { VisitorLine } from './line.ts';
import type { BrowserTab, EngineName, Key, PageFunction, Problem, Viewport } from './types.ts';

/** How long one try of `waitFor` may go unanswered before the next. */
const POLL_ANSWER_MS = 3000;

/**
 * A visitor's tab as the journeys use it, the same in every engine: the engine's own commands
 * (navigation, clicks, keys, cookies) and, built on running functions in the page, the questions
 * the tests ask about it.
 */
export class Visitor {
  /** What the journey asked of the tab, in order, with when (ms since the visitor opened): a failure's evidence. */
  readonly steps: { atMs: number; step: string }[] = [];
  /**
   * The calls to the engine not answered yet, each with when it was made: where a journey hangs
   * on an engine that does not answer, a failure's evidence names the call.
   */
  readonly unanswered = new Set<{ atMs: number; call: string }>();
  private readonly openedAt = performance.now();
  private readonly tab: BrowserTab;

  constructor(
    readonly engine: EngineName,
    tab: BrowserTab,
    /** Everything the browser asked the server for, and the means to slow answers down. */
    readonly line: VisitorLine,
  ) {
    this.tab = this.tracked(tab);
  }

  /** The tab, with each call that returns a promise in `unanswered` until it settles. */
  private tracked(tab: BrowserTab): BrowserTab {
    return new Proxy(tab, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result: unknown = value.apply(target, args);
          if (!(result instanceof Promise)) return result;
          const call = { atMs: this.now(), call: describeCall(String(key), args) };
          this.unanswered.add(call);
          return result.finally(() => this.unanswered.delete(call));
        };
      },
    });
  }

  /** Milliseconds since the visitor opened, the clock of `steps` and `unanswered`. */
  now(): number {
    return Math.round(performance.now() - this.openedAt);
  }

  /** Where this visitor reaches the site; each visitor has a line of its own. */
  get origin(): string {
    return this.line.origin;
  }

  private record(step: string): void {
    this.steps.push({ atMs: this.now(), step });
  }

  goto(path: string): Promise<{ status: number }> {
    this.record(`goto ${path}`);
    return this.tab.goto(path);
  }
  reload(): Promise<void> {
    this.record('reload');
    return this.tab.reload();
  }
  back(): Promise<void> {
    this.record('back');
    return this.tab.back();
  }

  evaluate<R>(fn: PageFunction<undefined, R>): Promise<R>;
  evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R>;
  evaluate<A, R>(fn: PageFunction<A | undefined, R>, arg?: A): Promise<R> {
    return this.tab.evaluate(fn, arg);
  }

  /** Waits until the function, run in the page again and again, returns something truthy. */
  async waitFor<A>(
    fn: PageFunction<A, unknown>,
    arg?: A,
    { timeout = 10_000, what = fn.toString() }: { timeout?: number; what?: string } = {},
  ): Promise<void> {
    this.record(`wait for ${what.replace(/\s+/g, ' ').slice(0, 200)}`);
    const deadline = Date.now() + timeout;
    // Only whether it is truthy crosses over: an element, say, is no value every driver can return.
    // A promise is awaited only when the function returns one: a page that runs no scripts of its
    // own (Firefox without JavaScript) never settles one made there.
    const truthy = new Function(
      'arg',
      `const result = (${fn.toString()})(arg);
      return typeof result?.then === 'function' ? result.then(Boolean) : Boolean(result);`,
    ) as PageFunction<A, boolean>;
    for (;;) {
      // A navigation may replace the document between two tries. A try the engine leaves
      // unanswered (WebKit's driver did, now and then, for a minute) counts as not yet: the next
      // is a command of its own, and the unanswered one stays in the evidence.
      const result = await Promise.race([
        this.tab.evaluate(truthy, arg as A).catch(() => false),
        new Promise<false>((resolve) => setTimeout(resolve, POLL_ANSWER_MS, false)),
      ]);
      if (result) return;
      if (Date.now() > deadline) throw new Error(`waited ${timeout} ms in ${this.engine} for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The path, query and fragment of the page the tab shows. */
  location(): Promise<string> {
    return this.evaluate(() => location.pathname + location.search + location.hash);
  }

  async waitForLocation(expected: string | RegExp, timeout = 10_000): Promise<void> {
    this.record(`wait for the location ${String(expected)}`);
    const deadline = Date.now() + timeout;
    for (;;) {
      const now = await this.location().catch(() => '');
      if (typeof expected === 'string' ? now === expected : expected.test(now)) return;
      if (Date.now() > deadline) throw new Error(`in ${this.engine} the tab is at ${now}, not ${expected}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The text of the first element the selector matches, or null when there is none. */
  text(selector: string): Promise<string | null> {
    return this.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);
  }

  attribute(selector: string, name: string): Promise<string | null> {
    return this.evaluate(([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null, [selector, name] as const);
  }

  /** Whether the first match takes up space on the page and is not hidden, as a visitor would see it. */
  async isVisible(selector: string): Promise<boolean> {
    return (await this.count(selector, { visible: true, first: true })) > 0;
  }

  /**
   * How many elements match, or how many of them are visible: with a box, not `visibility:
   * hidden`, and not skipped content (the body of a closed `<details>`, which Chromium lays out
   * with `content-visibility: hidden`) where the browser can tell (`checkVisibility`), or else
   * not inside a closed `<details>` beside its summary.
   */
  count(selector: string, { visible = false, first = false } = {}): Promise<number> {
    return this.evaluate(
      ([s, onlyVisible, onlyFirst]) => {
        const shown = (element: Element) => {
          const box = element.getBoundingClientRect();
          if (!(box.width > 0 && box.height > 0) || getComputedStyle(element).visibility === 'hidden') return false;
          return element.checkVisibility();
        };
        const matches = onlyFirst
          ? [document.querySelector(s)].filter((e) => e !== null)
          : [...document.querySelectorAll(s)];
        return matches.filter((element) => !onlyVisible || shown(element)).length;
      },
      [selector, visible, first] as const,
    );
  }

  click(selector: string): Promise<void> {
    this.record(`click ${selector}`);
    return this.tab.click(selector);
  }

  /** A key pressed on the element, or on whatever has the focus when the selector is null. */
  press(selector: string | null, key: Key): Promise<void> {
    this.record(`press ${key}${selector ? ` on ${selector}` : ''}`);
    return this.tab.press(selector, key);
  }

  /**
   * Chooses an option of a `<select>` with the keyboard, as a visitor can in every engine
   * (WebDriver cannot click an option of WebKit's pop-up list).
   */
  async select(selector: string, value: string): Promise<void> {
    const position = () =>
      this.evaluate(
        ([s, v]) => {
          const select = document.querySelector<HTMLSelectElement>(s)!;
          return { at: select.selectedIndex, wanted: [...select.options].findIndex((o) => o.value === v) };
        },
        [selector, value] as const,
      );
    const { wanted, ...start } = await position();
    let { at } = start;
    if (wanted < 0) throw new Error(`${selector} has no option ${value}`);
    for (let presses = 0; at !== wanted && presses < 50; presses++) {
      await this.press(selector, at < wanted ? 'ArrowDown' : 'ArrowUp');
      ({ at } = await position());
    }
    if (at !== wanted) throw new Error(`${selector} did not reach ${value} in ${this.engine}`);
  }

  setViewport(viewport: Viewport): Promise<void> {
    this.record(`viewport ${viewport.width}×${viewport.height}`);
    return this.tab.setViewport(viewport);
  }

  cookie(name: string): Promise<string | undefined> {
    return this.tab.cookie(name);
  }

  addInitScript<A>(fn: PageFunction<A, void>, arg?: A): Promise<void> {
    return this.tab.addInitScript(fn, arg as A);
  }

  problems(): Promise<Problem[]> {
    return this.tab.problems();
  }

  /** Brings the tab to the front, as the visitor switching to it (see BrowserTab.show). */
  show(): Promise<void> {
    return this.tab.show();
  }

  /** Makes the browser ask to spare data, where the engine can (see BrowserTab.askToSaveData). */
  askToSaveData(): Promise<boolean> {
    return this.tab.askToSaveData();
  }

  /**
   * Makes the page run as on a slow phone: the engine's own CPU throttling where it has one
   * (Chromium); elsewhere a script that keeps the main thread busy between the page's own tasks,
   * for (rate - 1) parts of every rate. React hydrates in short slices, each of which then waits
   * behind the busy spells, as it would on a CPU that many times slower.
   */
  async slowDownCpu(rate: number): Promise<void> {
    if (await this.tab.slowDownCpu(rate)) return;
    await this.addInitScript((busyShare: number) => {
      if (window !== window.top) return;
      const SLICE_MS = 5;
      const busy = () => {
        const until = performance.now() + SLICE_MS * busyShare;
        while (performance.now() < until);
        setTimeout(busy, SLICE_MS);
      };
      setTimeout(busy);
    }, rate - 1);
  }

  screenshot(): Promise<Buffer> {
    return this.tab.screenshot();
  }

  /** Closes the tab and its line, once however often it is called: a journey may close a visitor before its test ends. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.tab.close();
      await this.line.close();
    })();
    return this.closing;
  }

  private closing: Promise<void> | undefined;
}

/** A call to the engine in a few words: its name and the start of its first argument (a function's text, a selector). */
function describeCall(name: string, args: readonly unknown[]): string {
  const first = args[0];
  if (first === undefined) return name;
  const text = typeof first === 'function' ? first.toString() : (JSON.stringify(first) ?? String(first));
  return `${name} ${text.replace(/\s+/g, ' ').slice(0, 120)}`;
}
