import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';

/** `npm run serve` (what `npm start` runs after its build) as a newcomer or an operator runs it: its 'listening' line. */
async function servedListening(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const npm = spawn('npm', ['run', 'serve'], {
    cwd: APP_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: npm, its shell and the server stop together.
    detached: true,
  });
  let stderr = '';
  npm.stderr.on('data', (chunk) => (stderr += String(chunk)));
  try {
    return await new Promise((resolve, reject) => {
      createInterface({ input: npm.stdout }).on('line', (line) => {
        // npm's own lines ("> serve") come first.
        if (!line.startsWith('{')) return;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === 'listening') resolve(entry);
      });
      npm.once('exit', (code) => reject(new Error(`npm run serve exited with ${code}: ${stderr}`)));
    });
  } finally {
    process.kill(-npm.pid!, 'SIGTERM');
  }
}

describe('npm start', () => {
  it('builds, then serves as production unless NODE_ENV says otherwise', async () => {
    const scripts = (await import('../../package.json', { with: { type: 'json' } })).default.scripts;
    expect(scripts.start).toBe('npm run build && npm run serve');
    expect(await servedListening({})).toMatchObject({ production: true });
    expect(await servedListening({ NODE_ENV: 'development' })).toMatchObject({ production: false });
  });
});
