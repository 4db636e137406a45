import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { CachedEndpoint } from './cache-events.ts';

/**
 * The last good backend answers, kept in a small JSON file so that a server restarted
 * during a backend outage still has them. A file written for another backend is ignored.
 * What is read back is unchecked: the caller checks it as it checks the backend.
 */
export interface SavedEntry {
  value: unknown;
  fetchedAt: number;
}

export interface SnapshotFile {
  /** The entries an earlier run saved for this backend. */
  read(): Partial<Record<CachedEndpoint, SavedEntry>>;
  /** Replaces one entry and writes the file (atomically: a temporary file, then a rename). */
  save(endpoint: CachedEndpoint, entry: SavedEntry): void;
}

interface FileContents {
  backend: string;
  entries: Partial<Record<CachedEndpoint, SavedEntry>>;
}

export function snapshotFile(filePath: string, backend: string, logger: Logger): SnapshotFile {
  let entries: Partial<Record<CachedEndpoint, SavedEntry>> = {};
  let writing: Promise<void> = Promise.resolve();
  let pending = false;
  let lastWriteFailed = false;

  const writeNow = async () => {
    pending = false;
    const contents: FileContents = { backend, entries };
    const temporary = `${filePath}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await mkdir(path.dirname(filePath), { recursive: true });
      await writeFile(temporary, JSON.stringify(contents), { mode: 0o600 });
      await rename(temporary, filePath);
      lastWriteFailed = false;
    } catch (error) {
      // Once per run of failures: a read-only disk would otherwise warn on every refresh.
      logger[lastWriteFailed ? 'debug' : 'warn'](
        { err: error, path: filePath },
        'cannot write the backend cache snapshot',
      );
      lastWriteFailed = true;
      await unlink(temporary).catch(() => {});
    }
  };

  return {
    read() {
      let text: string;
      try {
        text = readFileSync(filePath, 'utf8');
      } catch {
        return {}; // no snapshot yet
      }
      try {
        const contents = JSON.parse(text) as Partial<FileContents>;
        if (contents.backend !== backend) {
          logger.info({ path: filePath }, 'the backend cache snapshot is for another backend; ignored');
          return {};
        }
        entries = isObject(contents.entries) ? { ...contents.entries } : {};
        return entries;
      } catch {
        logger.warn({ path: filePath }, 'the backend cache snapshot is unreadable; ignored');
        return {};
      }
    },
    save(endpoint, entry) {
      entries = { ...entries, [endpoint]: entry };
      // Saves that arrive during a write are folded into one more write after it.
      if (pending) return;
      pending = true;
      writing = writing.then(writeNow);
    },
  };
}

function isObject(value: unknown): value is Record<string, SavedEntry> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
