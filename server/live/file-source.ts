import { statSync } from 'node:fs';
import type { Logger } from 'pino';
import type { LiveState } from '../../shared/live-state.ts';
import { checkLiveFileText, readLiveText, type LiveFileCheck } from '../content/live-file.ts';
import { ContentError } from '../content/site-content.ts';
import { followFolder } from './folder-watch.ts';
import type { LiveObserver, LiveSource } from './live-source.ts';
import { NEVER_UPDATED, withVersion } from './live-version.ts';

export interface FileLiveSourceOptions {
  /** The live file, and how the operator named it (for messages). */
  path: string;
  shown: string;
  /** The offered languages' codes, the default first. */
  languages: readonly string[];
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

/** The file as read: its text, null when there is none, or why it cannot be read. */
type FileText = { text: string | null } | { unreadable: string };

/**
 * The live file, read at start (a problem there stops the server, as the content file's do) and
 * again whenever it changes, without a restart. A change the check refuses (a half-written save,
 * an unknown field, a notice too long...) changes nothing: the last good state stays, and the
 * refusal is logged and counted once, however often the same text is read again.
 */
export function fileLiveSource(options: FileLiveSourceOptions): LiveSource {
  const { path, shown, languages, logger } = options;
  let lastRead = readFile(path);
  const first = check(lastRead, shown, languages);
  if (!first.live) throw new ContentError(first.problems);
  let state: LiveState = withVersion(first.live, modifiedAt(path));

  const reread = () => {
    const now = readFile(path);
    if (sameText(now, lastRead)) return;
    lastRead = now;
    const reading = check(now, shown, languages);
    if (!reading.live) {
      options.observer.refused('file');
      logger.warn(
        { file: shown, problems: reading.problems, version: state.version },
        `live file change refused; the live state stays as it was: ${reading.problems[0]}`,
      );
      return;
    }
    for (const warning of reading.warnings) logger.warn({ file: shown }, warning);
    const next = withVersion(reading.live, modifiedAt(path));
    if (next.version === state.version) return;
    state = next;
    logger.info(
      { file: shown, version: state.version, notice: state.notice?.level ?? null, status: state.status },
      'text' in now && now.text === null ? 'live file removed: no live changes' : 'live state changed',
    );
  };

  const following = followFolder(path, reread, {
    quietMs: options.quietMs ?? QUIET_MS,
    everyMs: options.checkEveryMs,
    events: options.folderEvents ?? true,
  });

  return {
    get: async () => state,
    close: () => following.close(),
  };
}

function readFile(path: string): FileText {
  try {
    return { text: readLiveText(path) };
  } catch (error) {
    return { unreadable: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

function sameText(a: FileText, b: FileText): boolean {
  return 'text' in a && 'text' in b ? a.text === b.text : 'unreadable' in a && 'unreadable' in b;
}

function check(file: FileText, shown: string, languages: readonly string[]): LiveFileCheck {
  if ('unreadable' in file)
    return { live: null, problems: [`${shown}: cannot be read (${file.unreadable})`], warnings: [] };
  return checkLiveFileText(file.text, shown, languages);
}

/** When the live file was last saved, the same on every read of the same file; none: never. */
function modifiedAt(path: string): string {
  try {
    return statSync(path).mtime.toISOString();
  } catch {
    return NEVER_UPDATED;
  }
}
