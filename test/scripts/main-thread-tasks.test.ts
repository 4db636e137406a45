import { describe, expect, it } from 'vitest';
import { describeTask, mainThreadTasks, type TraceEvent } from '../../scripts/bench/main-thread-tasks.ts';

const PAGE = { pid: 7, tid: 1 };
const OTHER = { pid: 9, tid: 1 };
const NAV = 1_000_000;
/** A complete event on the page's main thread, `at` and `ms` in ms since the navigation. */
const x = (name: string, at: number, ms: number, extra: Partial<TraceEvent> = {}): TraceEvent => ({
  name,
  ph: 'X',
  ...PAGE,
  ts: NAV + at * 1000,
  dur: ms * 1000,
  ...extra,
});
const APP = 'http://127.0.0.1:4000/assets/app-ABC.js';

const trace: TraceEvent[] = [
  { name: 'thread_name', ph: 'M', ...PAGE, ts: 0, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', ...OTHER, ts: 0, args: { name: 'CrRendererMain' } },
  { name: 'navigationStart', ph: 'R', ...PAGE, ts: NAV },
  x('RunTask', 200, 60),
  x('DocumentLoader::CommitNavigation', 201, 58),
  x('ParseHTML', 230, 20),
  x('RunTask', 300, 30),
  x('UpdateLayoutTree', 301, 5),
  x('Layout', 306, 15),
  x('Paint', 322, 4),
  x('RunTask', 400, 8), // too short to block on the phone
  x('v8.callFunction', 400, 7, { args: { data: { url: APP } } }),
  x('RunTask', 500, 20),
  x('v8.evaluateModule', 501, 12),
  x('FunctionCall', 514, 5, { args: { data: { url: APP, functionName: 'boot' } } }),
  x('RunTask', 600, 14),
  x('MinorGC', 600, 13),
  x('ThreadControllerImpl::RunTask', 700, 13),
  x('ParseHTML', 701, 11),
  // Another renderer's thread, with fewer events: a long task there is not the page's.
  { name: 'RunTask', ph: 'X', ...OTHER, ts: NAV + 100_000, dur: 90_000 },
];

describe("the page's main thread in the browser's trace", () => {
  it('lists the tasks that can block on the phone, each by what it spent its time on', () => {
    expect(mainThreadTasks(trace)).toEqual([
      { kind: 'commit', startMs: 200, durationMs: 60 },
      { kind: 'frame', startMs: 300, durationMs: 30 },
      { kind: 'script', startMs: 500, durationMs: 20, script: 'app-ABC.js' },
      { kind: 'gc', startMs: 600, durationMs: 14 },
      { kind: 'parse', startMs: 700, durationMs: 13 },
    ]);
  });

  it('takes a shorter threshold, and reads nothing from a trace without the navigation', () => {
    expect(mainThreadTasks(trace, 5).map(({ startMs }) => startMs)).toEqual([200, 300, 400, 500, 600, 700]);
    expect(mainThreadTasks(trace.filter(({ name }) => name !== 'navigationStart'))).toEqual([]);
  });

  it('names a task in a few words', () => {
    expect(describeTask({ kind: 'script', startMs: 729, durationMs: 26.1, script: 'app-ABC.js' })).toBe(
      'script 26.1 ms @729 (app-ABC.js)',
    );
  });
});
