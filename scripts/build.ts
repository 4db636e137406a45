/**
 * Production build: the hashed browser bundle and stylesheet (with brotli and gzip
 * copies served as they are), their manifest, and the bundled server.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { APP_ROOT } from '../server/config/paths.ts';
import {
  buildStarter,
  describeSizes,
  DIST,
  outputPaths,
  precompress,
  scriptBuildOptions,
  serverBuildOptions,
  stylesBuildOptions,
  writeClientManifest,
} from './build-steps.ts';
import { writeBuildSources } from './build-sources.ts';

// Built aside and swapped in at the end, so that a server or a test run started meanwhile (a second
// test suite builds too) never finds the last build half written or gone.
// At the same depth as dist/, so that the source maps' relative paths and the content hashes are the same.
const staging = path.join(APP_ROOT, `.build-${process.pid}`);
const previous = `${staging}-previous`;

rmSync(staging, { recursive: true, force: true });
mkdirSync(outputPaths(staging).assets, { recursive: true });

const [scripts, styles] = await Promise.all([
  esbuild.build(scriptBuildOptions('production', staging)),
  esbuild.build(stylesBuildOptions(staging)),
]);
const starter = await buildStarter(scripts.metafile);
writeClientManifest(staging, starter.text, scripts.metafile, styles.metafile);
precompress(scripts.metafile, styles.metafile);
const server = await esbuild.build(serverBuildOptions(staging));
writeBuildSources(staging, [scripts.metafile, styles.metafile, starter.metafile, server.metafile]);

swapIn(staging, DIST);
rmSync(previous, { recursive: true, force: true });

console.log(
  `Built ${describeSizes(scripts.metafile, styles.metafile)}, the inline starter ${(starter.text.length / 1024).toFixed(1)} KB`,
);

/** Replaces `target` by `built`; between the two renames `target` is missing only for an instant. */
function swapIn(built: string, target: string): void {
  for (;;) {
    try {
      renameSync(target, previous);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    try {
      renameSync(built, target);
      return;
    } catch (error) {
      // Another build swapped its own in between: take that one out too.
      if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      rmSync(previous, { recursive: true, force: true });
    }
  }
}
