import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/**
 * Calls `changed` after anything changes in the folder of `filePath`, once the changes have been
 * quiet for `quietMs` (an editor's save, a kubelet's swap, are several events), and every
 * `everyMs` in any case. The folder, not the file: a ConfigMap's update swaps the `..data`
 * symlink the file points through, which a watch on the file itself never hears of. The timer
 * covers what no event tells of (file systems without events, a folder made after the start);
 * `changed` compares the file's content, so a call with nothing new costs one small read.
 */
export function followFolder(
  filePath: string,
  changed: () => void,
  { quietMs, everyMs, events = true }: { quietMs: number; everyMs: number; events?: boolean },
): { close(): void } {
  const folder = path.dirname(filePath);
  let watcher: FSWatcher | null = null;
  let quiet: NodeJS.Timeout | undefined;

  const soon = () => {
    clearTimeout(quiet);
    quiet = setTimeout(changed, quietMs);
    quiet.unref();
  };
  const startWatching = () => {
    if (!events || watcher) return;
    try {
      watcher = watch(folder, { persistent: false }, soon);
      // A folder removed (and perhaps made again): watched anew at the next tick.
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null; // no such folder yet
    }
  };

  startWatching();
  const timer = setInterval(() => {
    startWatching();
    changed();
  }, everyMs);
  timer.unref();

  return {
    close() {
      clearInterval(timer);
      clearTimeout(quiet);
      watcher?.close();
      watcher = null;
    },
  };
}
