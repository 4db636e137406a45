import { readdirSync, readFileSync } from 'node:fs';

/** The pids of this machine's processes whose command line (its arguments) `matches`. */
export function processesWhere(matches: (args: string[]) => boolean): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return matches(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}
