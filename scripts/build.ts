/**
 * Production build: the hashed browser bundle and stylesheet (with brotli and gzip
 * copies served as they are), their manifest, and the bundled server.
 */
import { mkdirSync, rmSync } from 'node:fs';
import * as esbuild from 'esbuild';
import {
  ASSETS_OUT,
  clientBuildOptions,
  describeSizes,
  DIST,
  precompress,
  serverBuildOptions,
  writeClientManifest,
} from './build-steps.ts';

rmSync(DIST, { recursive: true, force: true });
mkdirSync(ASSETS_OUT, { recursive: true });

const client = await esbuild.build(clientBuildOptions('production'));
writeClientManifest(client.metafile);
precompress(client.metafile);
await esbuild.build(serverBuildOptions());

console.log(`Built ${describeSizes(client.metafile)}`);
