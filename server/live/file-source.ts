import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { LiveState } from '../../shared/live-state.ts';
import { checkLiveFileText, NO_LIVE_CHANGES, readLiveFile, type LiveFileCheck } from '../content/live-file.ts';
import type { LiveRules } from '../content/live-rules.ts';
import { followFolder } from './folder-watch.ts';
import { pageShows } from './page-shows.ts';
import type { LiveObserver, LiveSource } from './live-source.ts';
import { withVersion } from './live-version.ts';

export interface FileLiveSourceOptions {
  /** The live file, and how the operator named it (for messages). */
  path: string;
  shown: string;
  /** The content file's rules the live file is checked with. */
  rules: LiveRules;
  /** How often the file is compared with what was read, whatever the folder's events say. */
  checkEveryMs: number;
  /** How long the folder's events must be quiet before the file is read. */
  quietMs?: number;
  /** Whether to listen to the folder's events at all (the timer alone otherwise). */
  folderEvents?: boolean;
  logger: Logger;
  observer: LiveObserver;
}

/** Long enough for a save's or a swap's events to pass, short against the minute a kubelet may take. */
const QUIET_MS = 100;

/** The file as read: its text and time, null when there is none, or why it cannot be read. */
type FileText = { text: string | null; modified: Date | null } | { unreadable: string };

/**
 * The live file, read at start and again whenever it changes, without a restart. A change the
 * check refuses (a half-written save, an unknown field, a notice too long...) changes nothing: the
 * last good state stays, and the refusal is logged and counted once, however often the same text
 * is read again. One refused at start leaves no live changes: a server that restarts on the day
 * (a pod moved to another node) must not stay down for a wrong word in the notice.
 */
export function fileLiveSource(options: FileLiveSourceOptions): LiveSource {
  const { path, shown, rules, logger } = options;
  let lastRead = readFile(path);
  let state: LiveState = withVersion(NO_LIVE_CHANGES, changedAt(lastRead, null));

  const refuse = (problems: string[], what: string) => {
    options.observer.refused('file');
    logger.warn({ file: shown, problems, version: state.version }, `${what}: ${problems[0]}`);
  };

  const first = check(lastRead, shown, rules);
  for (const warning of first.warnings) logger.warn({ file: shown }, warning);
  if (first.live) state = withVersion(first.live, changedAt(lastRead, null));
  else refuse(first.problems, 'live file refused at start; no live changes until it is fixed');

  const reread = () => {
    const now = readFile(path);
    if (sameText(now, lastRead)) return;
    lastRead = now;
    const reading = check(now, shown, rules);
    if (!reading.live) {
      refuse(reading.problems, 'live file change refused; the live state stays as it was');
      return;
    }
    for (const warning of reading.warnings) logger.warn({ file: shown }, warning);
    const next = withVersion(reading.live, changedAt(now, state));
    const changed = next.version !== state.version;
    if (changed) state = next;
    // Every save that is taken is confirmed, one that changes nothing the page shows as well:
    // a good file put back after a refused one is not left unanswered.
    logger.info(
      { file: shown, version: state.version, ...pageShows(state, rules) },
      !changed
        ? 'live file read; nothing the page shows changed'
        : 'text' in now && now.text === null
          ? 'live file removed: no live changes'
          : 'live state changed',
    );
  };

  const following = followFolder(path, reread, {
    quietMs: options.quietMs ?? QUIET_MS,
    everyMs: options.checkEveryMs,
    events: options.folderEvents ?? true,
  });

  return {
    get: async () => state,
    current: () => state,
    close: () => following.close(),
  };
}

/**
 * When the state read from `file` came to be: the file's modification time, or for a file that is
 * not there (taken down) its folder's, which the removal set; never before the state it follows,
 * since a file copied with its times kept (`cp -p`, an unpacked archive) may be older than the one
 * it replaces. Read from the disk, not the clock, so that a restart finds the same time for the
 * same state: the calendar's SEQUENCE is made of it (server/live/event-facts.ts).
 */
function changedAt(file: FileText, previous: LiveState | null): Date {
  const at = 'modified' in file && file.modified ? file.modified.getTime() : Date.now();
  return new Date(previous ? Math.max(at, Date.parse(previous.updated) + 1) : at);
}

function readFile(path: string): FileText {
  try {
    const file = readLiveFile(path);
    return { text: file?.text ?? null, modified: file?.modified ?? folderModified(path) };
  } catch (error) {
    return { unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

function folderModified(path: string): Date | null {
  try {
    return statSync(dirname(path)).mtime;
  } catch {
    return null;
  }
}

function sameText(a: FileText, b: FileText): boolean {
  return 'text' in a && 'text' in b ? a.text === b.text : 'unreadable' in a && 'unreadable' in b;
}

function check(file: FileText, shown: string, rules: LiveRules): LiveFileCheck {
  if ('unreadable' in file)
    return { live: null, problems: [`${shown}: cannot be read (${file.unreadable})`], warnings: [] };
  return checkLiveFileText(file.text, shown, rules);
}
