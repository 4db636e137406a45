import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { APP_ROOT } from '../../server/paths.ts';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Every log line the server has written so far, parsed. */
  logs: Record<string, unknown>[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built server (dist/server/index.js) on a free loopback port, as operators run it.
 * `nodeArgs` go to Node before the script (a test may preload a module with --import).
 */
export async function startServer(env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): Promise<RunningServer> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(APP_ROOT, 'dist/server/index.js')], {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'listening') resolve(entry.port as number);
      } catch {
        logs.push({ raw: line });
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${stderr.trim()}`)));
  });

  return {
    url: `http://127.0.0.1:${port}`,
    child,
    logs,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
