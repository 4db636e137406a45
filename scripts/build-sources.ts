/**
 * What a production build was made from: every file esbuild read for it (its metafiles' inputs),
 * the build's own scripts and the lockfile, each with its SHA-256, written beside the build. The
 * suites and benchmarks build only where dist/ was made from other sources, so a CI run builds once.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type * as esbuild from 'esbuild';
import { APP_ROOT } from '../server/config/paths.ts';

const SOURCES_FILE = 'build-sources.json';
const BUILD_FILES = ['scripts/build.ts', 'scripts/build-steps.ts', 'scripts/build-sources.ts', 'package-lock.json'];

const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Names the sources of the build in `root`, from the metafiles of its esbuild runs, whose paths
 * are relative to `base` (their absWorkingDir).
 */
export function writeBuildSources(root: string, metafiles: esbuild.Metafile[], base = APP_ROOT): void {
  const files = new Set([...BUILD_FILES, ...metafiles.flatMap((metafile) => Object.keys(metafile.inputs))]);
  const sources = Object.fromEntries(
    [...files]
      .filter((file) => existsSync(path.join(base, file)))
      .sort()
      .map((file) => [file, hashOf(path.join(base, file))]),
  );
  writeFileSync(path.join(root, SOURCES_FILE), `${JSON.stringify(sources, null, 1)}\n`);
}

/** Whether the build in `root` was made from the files as they are now; no build, or one without its sources, is not. */
export function isBuiltFromCurrentSources(root: string, base = APP_ROOT): boolean {
  let sources: Record<string, string>;
  try {
    sources = JSON.parse(readFileSync(path.join(root, SOURCES_FILE), 'utf8')) as Record<string, string>;
  } catch {
    return false;
  }
  return Object.entries(sources).every(([file, hash]) => {
    const at = path.join(base, file);
    return existsSync(at) && hashOf(at) === hash;
  });
}
