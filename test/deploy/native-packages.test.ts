import { describe, expect, it } from 'vitest';
import { runtimeNativePackages } from '../helpers/native-packages.ts';

describe("the runtime dependencies' native packages", () => {
  it('are the optional packages of the production tree built for the platform', () => {
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
      'plain-optional',
      'not-on-windows',
    ]);
  });
});
