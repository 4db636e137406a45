import { describe, it } from 'vitest';
import { runUntilExit, startServer } from '../../scripts/harness/server-process.ts';

describe.concurrent('starting a rehearsal', () => {
  it.for<[string, NodeJS.ProcessEnv, string]>([
    [
      'in production without REHEARSAL_IN_PRODUCTION',
      { REHEARSAL_CLOCK: '2027-03-18T17:55' },
      'Cannot start: Invalid REHEARSAL_CLOCK: a rehearsal is refused with NODE_ENV=production unless REHEARSAL_IN_PRODUCTION=yes',
    ],
    [
      'with a time that is not one',
      { REHEARSAL_CLOCK: '18.03.2027 17:55', NODE_ENV: 'development' },
      "Cannot start: Invalid REHEARSAL_CLOCK: must be the event clock's time at start on the event's wall clock, like 2027-03-18T17:55, or an instant with its offset, like 2027-03-18T16:55Z",
    ],
  ])('%s stops at start with one line', async ([, env, message], { expect }) => {
    const exited = await runUntilExit(env);
    expect(exited.code).not.toBe(0);
    expect(exited.stderr.split('\n').filter(Boolean)).toEqual([message]);
    expect(exited.stdout).not.toMatch(/listening/);
  });

  it('on the image, allowed by REHEARSAL_IN_PRODUCTION=yes, says so in one log line with the shift', async ({
    expect,
  }) => {
    const startedAt = Date.now();
    const server = await startServer({ REHEARSAL_CLOCK: '2027-03-18T17:55', REHEARSAL_IN_PRODUCTION: 'yes' });
    try {
      const lines = server.logs.filter((line) => String(line.msg).startsWith('rehearsal'));
      expect(lines).toHaveLength(1);
      // The shipped content's event is in Vienna: 17:55 there on 18 March 2027 is 16:55 UTC.
      const shiftMs = lines[0]!.shiftMs as number;
      // Read at the server's start, give or take the half second its shift is rounded by.
      expect(startedAt + shiftMs).toBeLessThanOrEqual(Date.UTC(2027, 2, 18, 16, 55) + 500);
      expect(Date.now() + shiftMs).toBeGreaterThanOrEqual(Date.UTC(2027, 2, 18, 16, 55) - 500);
      expect(shiftMs % 1000).toBe(0);
      expect(lines[0]).toMatchObject({
        level: 40,
        rehearsalClock: '2027-03-18T17:55',
        clockAtStart: '2027-03-18 17:55',
        timeZone: 'Europe/Vienna',
      });
    } finally {
      await server.stop();
    }
  });
});
