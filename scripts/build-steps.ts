/**
 * The build's steps, shared by `npm run build` (production, once) and `npm run dev` (watching).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type * as esbuild from 'esbuild';
import { ASSET_MANIFEST } from '../server/files/client-assets.ts';
import { APP_ROOT } from '../server/paths.ts';

export const DIST = path.join(APP_ROOT, 'dist');
export const CLIENT_OUT = path.join(DIST, 'client');
export const ASSETS_OUT = path.join(CLIENT_OUT, 'assets');
export const SERVER_OUT = path.join(DIST, 'server', 'index.js');

export type BuildMode = 'production' | 'development';

/** The browser bundle and stylesheet, hashed; in development unminified, with React's warnings. */
export function clientBuildOptions(mode: BuildMode) {
  return {
    absWorkingDir: APP_ROOT,
    entryPoints: { client: 'client/entry.tsx', styles: 'client/styles.css' },
    outdir: ASSETS_OUT,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
    minify: mode === 'production',
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'linked',
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    // Most of the bundle runs while the page starts; this V8 hint has it compiled eagerly, off the
    // main thread while it downloads, instead of function by function on the main thread.
    banner: { js: '//# allFunctionsCalledOnLoad' },
    logLevel: 'warning',
  } satisfies esbuild.BuildOptions;
}

/** The server, bundled with its own modules; packages stay in node_modules. */
export function serverBuildOptions() {
  return {
    absWorkingDir: APP_ROOT,
    entryPoints: ['server/index.ts'],
    outfile: SERVER_OUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: 'linked',
    jsx: 'automatic',
    logLevel: 'warning',
  } satisfies esbuild.BuildOptions;
}

type Outputs = [file: string, meta: esbuild.Metafile['outputs'][string]][];

/** The manifest the server reads to name the current script and stylesheet in the page. */
export function writeClientManifest(metafile: esbuild.Metafile): void {
  const outputs: Outputs = Object.entries(metafile.outputs);
  const publicPath = (entry: string) => {
    const found = outputs.find(([file, meta]) => meta.entryPoint?.endsWith(entry) && !file.endsWith('.map'));
    if (!found) throw new Error(`No build output for ${entry}`);
    return `/assets/${path.basename(found[0])}`;
  };
  writeFileSync(
    path.join(CLIENT_OUT, ASSET_MANIFEST),
    JSON.stringify({ script: publicPath('client/entry.tsx'), stylesheet: publicPath('client/styles.css') }, null, 2),
  );
}

/** Brotli and gzip copies of every script and stylesheet, served as they are. */
export function precompress(metafile: esbuild.Metafile): void {
  for (const file of Object.keys(metafile.outputs)) {
    if (!/\.(js|css)$/.test(file)) continue;
    const body = readFileSync(path.join(APP_ROOT, file));
    writeFileSync(
      `${path.join(APP_ROOT, file)}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${path.join(APP_ROOT, file)}.gz`, gzipSync(body, { level: 9 }));
  }
}

export function describeSizes(metafile: esbuild.Metafile): string {
  return Object.entries(metafile.outputs)
    .filter(([file]) => /\.(js|css)$/.test(file))
    .map(([file, meta]) => `${path.basename(file)} ${(meta.bytes / 1024).toFixed(1)} KB`)
    .join(', ');
}
