/**
 * The page's main thread in the browser's own trace (the one Lighthouse records with
 * --save-assets): its tasks long enough to block it on Lighthouse's phone, each with what it
 * spent its time on. Lighthouse's mobile preset replays the trace four times slower (layout two
 * times), and counts as blocking what of a task passes 50 ms, so a task of 12.5 ms here can block.
 */

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string } };
}

/** What a task spent most of its time on. */
export type TaskKind =
  /** Chromium committing the navigation: the page's script context, and the parse of the body it holds. */
  | 'commit'
  /** Style, layout and paint of a frame. */
  | 'frame'
  /** The page's JavaScript: a module evaluated, a timer, an event handler, React's work. */
  | 'script'
  /** V8's garbage collector. */
  | 'gc'
  /** Parsing the HTML. */
  | 'parse'
  | 'other';

export const TASK_KINDS: readonly TaskKind[] = ['commit', 'frame', 'script', 'gc', 'parse', 'other'];

export interface MainThreadTask {
  kind: TaskKind;
  /** ms since the navigation started */
  startMs: number;
  durationMs: number;
  /** The script the task ran, by file name, when it ran one. */
  script?: string;
}

/** Tasks of this length or more (ms) can block on Lighthouse's phone, four times slower. */
export const LONG_ON_PHONE_MS = 12.5;

const TASK_NAMES = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const SCRIPT_EVENTS = new Set(['v8.evaluateModule', 'v8.callFunction', 'FunctionCall', 'EvaluateScript', 'TimerFire']);
const COMMIT_EVENTS = new Set(['DocumentLoader::CommitNavigation']);
const FRAME_EVENTS = new Set(['Layout', 'Paint', 'UpdateLayoutTree', 'PrePaint']);
const GC_EVENTS = new Set(['MinorGC', 'MajorGC']);
const PARSE_EVENTS = new Set(['ParseHTML', 'DecodedDataDocumentParser::AppendBytes']);

/** The renderer's main thread that did the most: the page's, not a frame's or an extension's. */
function pageThread(events: TraceEvent[]): string | undefined {
  const perThread = new Map<string, number>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    perThread.set(thread, (perThread.get(thread) ?? 0) + 1);
  }
  return events
    .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
    .map((event) => `${event.pid}:${event.tid}`)
    .sort((a, b) => (perThread.get(b) ?? 0) - (perThread.get(a) ?? 0))[0];
}

/** The page's main-thread tasks of at least `minMs` (default: those that can block on the phone), in order. */
export function mainThreadTasks(events: TraceEvent[], minMs = LONG_ON_PHONE_MS): MainThreadTask[] {
  const thread = pageThread(events);
  const navigationStart = events.find((event) => event.name === 'navigationStart')?.ts;
  if (!thread || navigationStart === undefined) return [];
  const timed = events
    .filter((event) => `${event.pid}:${event.tid}` === thread && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  const tasks: MainThreadTask[] = [];
  for (const task of timed) {
    if (!TASK_NAMES.has(task.name) || task.dur! < minMs * 1000) continue;
    const end = task.ts + task.dur!;
    const inside = timed.filter((event) => event !== task && event.ts >= task.ts && event.ts + event.dur! <= end);
    const time = (names: Set<string>) =>
      inside.filter((event) => names.has(event.name)).reduce((sum, event) => sum + event.dur!, 0);
    const half = task.dur! / 2;
    const script = inside.find((event) => SCRIPT_EVENTS.has(event.name) && event.args?.data?.url)?.args?.data?.url;
    let kind: TaskKind = 'other';
    if (time(COMMIT_EVENTS) > 0) kind = 'commit';
    else if (time(FRAME_EVENTS) > half) kind = 'frame';
    else if (time(GC_EVENTS) > half) kind = 'gc';
    else if (inside.some((event) => SCRIPT_EVENTS.has(event.name))) kind = 'script';
    else if (time(PARSE_EVENTS) > 0) kind = 'parse';
    tasks.push({
      kind,
      startMs: Math.round((task.ts - navigationStart) / 1000),
      durationMs: Math.round(task.dur! / 100) / 10,
      ...(script ? { script: script.split('/').at(-1) || script } : {}),
    });
  }
  return tasks;
}

/** The tasks' time together, in ms. */
export function totalMs(tasks: MainThreadTask[]): number {
  return tasks.reduce((sum, { durationMs }) => sum + durationMs, 0);
}

/** A task in a few words: `script 26.1 ms @729 (app-….js)`. */
export function describeTask({ kind, durationMs, startMs, script }: MainThreadTask): string {
  return `${kind} ${durationMs} ms @${startMs}${script ? ` (${script})` : ''}`;
}
