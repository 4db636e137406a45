import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';

const manifest = readClientManifest(CLIENT_BUILD_DIR);

interface RecordedObserver {
  callback: (list: { getEntriesByName(name: string): { name: string }[] }) => void;
  options?: unknown;
  disconnected: boolean;
}

/**
 * The starter as the pages carry it, run against a stand-in browser that records its paint
 * observers, frame callbacks, tasks and imports, and delivers them when the test says. Its one
 * `import(` (the build's test checks there is only one) is pointed at the recorder.
 */
function runStarter({ paintTiming }: { paintTiming: boolean }) {
  const observers: RecordedObserver[] = [];
  const tasks: { task: () => void; delay: number }[] = [];
  const frames: (() => void)[] = [];
  const imported: string[] = [];
  const loadListeners: (() => void)[] = [];
  class StandInObserver {
    static supportedEntryTypes = paintTiming ? ['paint', 'resource'] : ['resource'];
    private readonly recorded: RecordedObserver;
    constructor(callback: RecordedObserver['callback']) {
      this.recorded = { callback, disconnected: false };
      observers.push(this.recorded);
    }
    observe(options: unknown) {
      this.recorded.options = options;
    }
    disconnect() {
      this.recorded.disconnected = true;
    }
  }
  runInNewContext(manifest.starter.replace('import(', 'importApp('), {
    PerformanceObserver: StandInObserver,
    setTimeout: (task: () => void, delay = 0) => tasks.push({ task, delay }),
    requestAnimationFrame: (frame: () => void) => frames.push(frame),
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'load') loadListeners.push(listener);
    },
    importApp: (specifier: string) => {
      imported.push(specifier);
      return new Promise(() => {});
    },
  });
  return {
    observers,
    frames,
    imported,
    /** The browser reports paint entries of these names to every observer still listening. */
    paint(...names: string[]) {
      for (const observer of observers.filter((o) => !o.disconnected))
        observer.callback({ getEntriesByName: (name) => names.filter((n) => n === name).map((n) => ({ name: n })) });
    },
    /** Runs the tasks due within `ms` (those queued meanwhile too), leaving later ones queued. */
    runTasks(ms = 0) {
      for (let due = tasks.findIndex((t) => t.delay <= ms); due >= 0; due = tasks.findIndex((t) => t.delay <= ms))
        tasks.splice(due, 1)[0]!.task();
    },
    /** The document and everything it waits for have loaded. */
    load() {
      for (const listener of loadListeners.splice(0)) listener();
    },
  };
}

describe('the starter, run', () => {
  it('asks for the app module once the first contentful paint is reported, in a task of its own, once', () => {
    const browser = runStarter({ paintTiming: true });
    expect(browser.observers).toHaveLength(1);
    expect(browser.observers[0]!.options).toEqual({ type: 'paint', buffered: true });
    browser.runTasks();
    browser.paint('first-paint');
    browser.runTasks();
    expect(browser.imported).toEqual([]);

    browser.paint('first-contentful-paint');
    expect(browser.imported).toEqual([]);
    browser.runTasks();
    expect(browser.imported).toEqual([manifest.script]);
    expect(browser.observers[0]!.disconnected).toBe(true);

    browser.paint('first-contentful-paint');
    browser.runTasks();
    expect(browser.imported).toEqual([manifest.script]);
  });

  it('where no paint is reported, asks for it two seconds after the page has loaded', () => {
    const browser = runStarter({ paintTiming: true });
    browser.runTasks(60_000);
    expect(browser.imported).toEqual([]);

    browser.load();
    browser.runTasks(1_999);
    expect(browser.imported).toEqual([]);
    browser.runTasks(2_000);
    expect(browser.imported).toEqual([manifest.script]);
    expect(browser.observers[0]!.disconnected).toBe(true);
    expect(browser.frames).toEqual([]);
  });

  it('asks once when the paint is reported and the page then loads', () => {
    const browser = runStarter({ paintTiming: true });
    browser.paint('first-contentful-paint');
    browser.load();
    browser.runTasks(60_000);
    expect(browser.imported).toEqual([manifest.script]);
  });

  it('where paint timing is missing, asks for it in a task after the first frame', () => {
    const browser = runStarter({ paintTiming: false });
    expect(browser.observers).toEqual([]);
    browser.runTasks();
    expect(browser.imported).toEqual([]);
    expect(browser.frames).toHaveLength(1);
    browser.frames[0]!();
    expect(browser.imported).toEqual([]);
    browser.runTasks();
    expect(browser.imported).toEqual([manifest.script]);
  });
});
