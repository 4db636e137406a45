import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';

const run = promisify(execFile);

describe('npm run test:browser (scripts/test-browsers.ts)', () => {
  it('refuses an engine it does not drive, with one line naming those it does, before running anything', async () => {
    const failed = await run(process.execPath, ['--import', 'tsx', 'scripts/test-browsers.ts', '--engine', 'opera'], {
      cwd: APP_ROOT,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'unknown engine opera: choose from chromium, firefox, webkit\n',
    });
  });
});
