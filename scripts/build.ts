/**
 * Production build: the hashed browser bundle and stylesheet (with brotli and gzip
 * copies served as they are), their manifest, and the bundled server.
 */
import { mkdirSync, rmSync } from 'node:fs';
import * as esbuild from 'esbuild';
import {
  ASSETS_OUT,
  describeSizes,
  DIST,
  precompress,
  scriptBuildOptions,
  serverBuildOptions,
  stylesBuildOptions,
  writeClientManifest,
} from './build-steps.ts';

rmSync(DIST, { recursive: true, force: true });
mkdirSync(ASSETS_OUT, { recursive: true });

const [scripts, styles] = await Promise.all([
  esbuild.build(scriptBuildOptions('production')),
  esbuild.build(stylesBuildOptions()),
]);
writeClientManifest(scripts.metafile, styles.metafile);
precompress(scripts.metafile, styles.metafile);
await esbuild.build(serverBuildOptions());

console.log(`Built ${describeSizes(scripts.metafile, styles.metafile)}`);
