import { readFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';

interface LockedPackage {
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

export interface Platform {
  os: string;
  cpu: string;
  libc: string;
}

/** The image's platform: Debian (glibc) on the architecture it is built on. */
const IMAGE_PLATFORM: Platform = { os: 'linux', cpu: process.arch, libc: 'glibc' };

/** Whether a package's `os`, `cpu` or `libc` list admits the platform (a `!name` entry refuses it). */
function admits(list: string[] | undefined, value: string): boolean {
  if (!list?.length) return true;
  if (list.includes(`!${value}`)) return false;
  return list.includes(value) || list.every((entry) => entry.startsWith('!'));
}

/**
 * The packages that a runtime dependency installs as optional dependencies for the image's
 * platform (the image library's prebuilt binaries): `npm ci --omit=optional` would
 * leave them out of the image, and the code that needs them would fail only when it runs.
 */
export function runtimeNativePackages(
  lock = JSON.parse(readFileSync(path.join(APP_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockedPackage>;
  },
  platform: Platform = IMAGE_PLATFORM,
): string[] {
  return (
    Object.entries(lock.packages)
      .filter(([where, locked]) => where !== '' && locked.optional && !locked.dev && !locked.devOptional)
      // Built for some platforms: an optional package the lock names none for (sharp's WebAssembly
      // build, which npm skips by the cpu in its own package.json) is no platform's binaries.
      .filter(([, locked]) => !!(locked.os?.length || locked.cpu?.length || locked.libc?.length))
      .filter(
        ([, locked]) =>
          admits(locked.os, platform.os) && admits(locked.cpu, platform.cpu) && admits(locked.libc, platform.libc),
      )
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length))
  );
}
