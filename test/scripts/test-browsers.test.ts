import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { browserSuiteArguments } from '../../scripts/harness/browser-engines.ts';
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

  it('passes every argument but --engine on to vitest as given, a test name after -t included', () => {
    expect(browserSuiteArguments(['--engine', 'firefox,webkit', 'test/browser/embeds.test.ts', '-t', 'a map'])).toEqual(
      {
        engines: ['firefox', 'webkit'],
        vitest: ['test/browser/embeds.test.ts', '-t', 'a map'],
      },
    );
    expect(browserSuiteArguments(['-t', 'the footer', '--engine=chromium'])).toEqual({
      engines: ['chromium'],
      vitest: ['-t', 'the footer'],
    });
    expect(browserSuiteArguments(['--testNamePattern=overlay'])).toEqual({
      engines: ['chromium', 'firefox', 'webkit'],
      vitest: ['--testNamePattern=overlay'],
    });
  });
});
