import type { RunningServer } from '../../scripts/harness/server-process.ts';
import { wait } from './visitors.ts';

/** Requests for `path` the server has logged so far (its access log, one line per answer). */
export function requestsLogged(server: RunningServer, path: string): number {
  return server.logs.filter((line) => line.msg === 'request completed' && line.path === path).length;
}

/** Waits until the server's log lines stop coming (they are read from its stdout), 4.5 s at most. */
export async function logSettled(server: RunningServer): Promise<void> {
  let seen = -1;
  for (let tries = 0; tries < 30 && seen !== server.logs.length; tries++) {
    seen = server.logs.length;
    await wait(150);
  }
}
