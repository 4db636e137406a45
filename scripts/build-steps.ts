/**
 * The build's steps, shared by `npm run build` (production, once) and `npm run dev` (watching).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { ASSET_MANIFEST, cannotInline, inlineHash, type ClientManifest } from '../server/static/client-assets.ts';
import { APP_ROOT } from '../server/config/paths.ts';

export const DIST = path.join(APP_ROOT, 'dist');

/** Where a build under `root` (dist/, or a folder it is built in before it takes dist/'s place) puts what. */
export function outputPaths(root = DIST) {
  const client = path.join(root, 'client');
  return { client, assets: path.join(client, 'assets'), server: path.join(root, 'server', 'index.js') };
}

export type BuildMode = 'production' | 'development';

/** The browsers the bundle and the starter are written for. */
const BROWSER_TARGETS = ['es2022', 'chrome109', 'firefox115', 'safari16'];

const browser = (root: string) =>
  ({
    absWorkingDir: APP_ROOT,
    outdir: outputPaths(root).assets,
    entryNames: '[name]-[hash]',
    bundle: true,
    platform: 'browser',
    target: BROWSER_TARGETS,
    metafile: true,
    logLevel: 'warning',
  }) satisfies esbuild.BuildOptions;

/** The app module, hashed; in development unminified, with React's warnings. */
export function scriptBuildOptions(mode: BuildMode, root = DIST) {
  return {
    ...browser(root),
    entryPoints: { app: 'client/main.tsx' },
    format: 'esm',
    minify: mode === 'production',
    sourcemap: 'linked',
    legalComments: 'linked',
    // React reads NODE_ENV; the app's own code reads BUILD_MODE (client/build-constants.d.ts).
    define: { 'process.env.NODE_ENV': JSON.stringify(mode), BUILD_MODE: JSON.stringify(mode) },
    // Most of the bundle runs while the page starts; this V8 hint has it compiled eagerly, off the
    // main thread while it downloads, instead of function by function on the main thread.
    banner: { js: '//# allFunctionsCalledOnLoad' },
  } satisfies esbuild.BuildOptions;
}

/**
 * The starter every page carries inline, importing the app module at `appModule`: minified, kept
 * in memory for the manifest (no file of its own, as no page asks for one).
 */
export function starterBuildOptions(appModule: string) {
  return {
    absWorkingDir: APP_ROOT,
    entryPoints: ['client/starter.ts'],
    write: false,
    metafile: true,
    // As written: a classic script of its own making, with no module wrapper or helpers.
    format: 'esm',
    minify: true,
    target: BROWSER_TARGETS,
    define: { APP_MODULE: JSON.stringify(appModule) },
    logLevel: 'warning',
  } satisfies esbuild.BuildOptions;
}

/** The starter's text for the app module this build wrote, and what esbuild read for it. */
export async function buildStarter(scripts: esbuild.Metafile): Promise<{ text: string; metafile: esbuild.Metafile }> {
  const built = await esbuild.build(starterBuildOptions(publicPathOf(outputsOf([scripts]), 'client/main.tsx')));
  return { text: built.outputFiles[0]!.text, metafile: built.metafile };
}

/**
 * The stylesheet, hashed. Every page carries it inline, byte for byte as in this file, so the file
 * names no source map, and none is written: nothing could find it.
 */
export function stylesBuildOptions(root = DIST) {
  return {
    ...browser(root),
    entryPoints: { styles: 'client/styles.css' },
    minify: true,
    sourcemap: false,
  } satisfies esbuild.BuildOptions;
}

/**
 * The server, bundled with its own modules, and beside it the photo encoder's process
 * (server/photos/encoder-process.ts finds it there); packages stay in node_modules.
 */
export function serverBuildOptions(root = DIST) {
  return {
    absWorkingDir: APP_ROOT,
    entryPoints: { index: 'server/index.ts', 'encoder-child': 'server/photos/encoder-child.ts' },
    outdir: path.dirname(outputPaths(root).server),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node26',
    packages: 'external',
    metafile: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    logLevel: 'warning',
  } satisfies esbuild.BuildOptions;
}

type Outputs = [file: string, meta: esbuild.Metafile['outputs'][string]][];
const outputsOf = (metafiles: esbuild.Metafile[]): Outputs => metafiles.flatMap((m) => Object.entries(m.outputs));

/** The public address of the build output for this entry point. */
function publicPathOf(outputs: Outputs, entry: string): string {
  const found = outputs.find(([file, meta]) => meta.entryPoint?.endsWith(entry) && !file.endsWith('.map'));
  if (!found) throw new Error(`No build output for ${entry}`);
  return `/assets/${path.basename(found[0])}`;
}

/**
 * The manifest the server reads to name the app module, inline the starter and the stylesheet,
 * and allow both in the Content-Security-Policy by their hashes.
 */
export function writeClientManifest(root: string, starter: string, ...metafiles: esbuild.Metafile[]): void {
  const { client } = outputPaths(root);
  const outputs = outputsOf(metafiles);
  const stylesheet = publicPathOf(outputs, 'client/styles.css');
  const css = readFileSync(path.join(client, stylesheet));
  const styleProblem = cannotInline(css, 'style');
  if (styleProblem) throw new Error(`client/styles.css cannot be inlined in the pages: ${styleProblem}`);
  const starterProblem = cannotInline(Buffer.from(starter), 'script');
  if (starterProblem) throw new Error(`client/starter.ts cannot be inlined in the pages: ${starterProblem}`);
  const manifest: ClientManifest = {
    script: publicPathOf(outputs, 'client/main.tsx'),
    starter,
    starterSha256: inlineHash(starter),
    stylesheet,
    stylesheetSha256: inlineHash(css),
  };
  writeFileSync(path.join(client, ASSET_MANIFEST), JSON.stringify(manifest, null, 2));
}

/** Brotli and gzip copies of every script and stylesheet, served as they are. */
export function precompress(...metafiles: esbuild.Metafile[]): void {
  for (const [file] of outputsOf(metafiles)) {
    if (!/\.(js|css)$/.test(file)) continue;
    const body = readFileSync(path.join(APP_ROOT, file));
    writeFileSync(
      `${path.join(APP_ROOT, file)}.br`,
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${path.join(APP_ROOT, file)}.gz`, gzipSync(body, { level: 9 }));
  }
}

export function describeSizes(...metafiles: esbuild.Metafile[]): string {
  return outputsOf(metafiles)
    .filter(([file]) => /\.(js|css)$/.test(file))
    .map(([file, meta]) => `${path.basename(file)} ${(meta.bytes / 1024).toFixed(1)} KB`)
    .join(', ');
}
