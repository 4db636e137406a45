import { describe, expect, it } from 'vitest';
import { startListening } from '../../scripts/harness/server-process.ts';

/** A stand-in for a server that hangs on its way out: it says it listens, then ignores SIGTERM. */
const DEAF_TO_SIGTERM = `
process.on('SIGTERM', () => console.log(JSON.stringify({ msg: 'shutting down' })));
console.log(JSON.stringify({ msg: 'listening', port: 1 }));
console.error('last words on stderr');
setInterval(() => {}, 1000);
`;

describe("a test's stop of a server", () => {
  it('fails within its bound, with the process state and its last logs, and the process is gone', async () => {
    const server = await startListening(['--input-type=commonjs', '--eval', DEAF_TO_SIGTERM], {
      SHUTDOWN_TIMEOUT_MS: '200',
    });
    const started = Date.now();
    const stopping = server.stop();
    // A summary that shows only the first line still tells how far the server got.
    await expect(stopping).rejects.toThrow(
      /did not exit within 5200 ms of SIGTERM; pid \d+, state S \(sleeping\), last logged "shutting down"\n/,
    );
    // The main thread first, by its id, the pid (Node 26 names it node-MainThread, Node 24 MainThread).
    const mainThread = new RegExp(`its threads:\\n${server.child.pid} [\\w-]+: S \\(sleeping\\), in \\w+\\n`);
    await expect(stopping).rejects.toThrow(mainThread);
    await expect(stopping).rejects.toThrow(/"msg":"shutting down"[\s\S]*last words on stderr/);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(server.child.signalCode).toBe('SIGKILL');
  }, 15_000);

  it('returns the exit code of a server that stops as it should', async () => {
    const server = await startListening([
      '--eval',
      `process.on('SIGTERM', () => process.exit(0)); console.log(JSON.stringify({ msg: 'listening', port: 1 })); setInterval(() => {}, 1000);`,
    ]);
    await expect(server.stop()).resolves.toBe(0);
  });
});
