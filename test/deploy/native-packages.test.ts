import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import { runtimeNativePackages } from '../helpers/native-packages.ts';

describe("the runtime dependencies' native packages", () => {
  it('are the optional packages of the production tree built for the platform, and only those built for some', () => {
    const lock = {
      packages: {
        '': {},
        'node_modules/sharp': {},
        'node_modules/@img/sharp-linux-x64': { optional: true, os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
        'node_modules/@img/sharp-linuxmusl-x64': { optional: true, os: ['linux'], cpu: ['x64'], libc: ['musl'] },
        'node_modules/@img/sharp-darwin-arm64': { optional: true, os: ['darwin'], cpu: ['arm64'] },
        'node_modules/@img/sharp-linux-arm64': { optional: true, os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
        'node_modules/fsevents': { optional: true, dev: true, os: ['darwin'] },
        'node_modules/@esbuild/linux-x64': { optional: true, dev: true, os: ['linux'], cpu: ['x64'] },
        'node_modules/typescript': { devOptional: true },
        'node_modules/a/node_modules/plain-optional': { optional: true },
        'node_modules/not-on-windows': { optional: true, os: ['!win32'] },
      },
    };
    expect(runtimeNativePackages(lock, { os: 'linux', cpu: 'x64', libc: 'glibc' })).toEqual([
      '@img/sharp-linux-x64',
      'not-on-windows',
    ]);
  });

  it("are installed by the Dockerfile's production install: the image library needs its binaries", () => {
    expect(runtimeNativePackages()).toContain(`@img/sharp-linux-${process.arch}`);
    const installs = readFileSync(path.join(APP_ROOT, 'Dockerfile'), 'utf8')
      .split(/\n(?=FROM )/)
      .find((stage) => stage.includes('AS production-deps'))!;
    expect(installs).toMatch(/npm ci --omit=dev/);
    expect(installs).not.toMatch(/--omit[= ]optional/);
  });
});
