/**
 * Production build: the hashed browser bundle and stylesheet (with brotli and gzip
 * copies served as they are), their manifest, and the bundled server.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { ASSET_MANIFEST, cannotInline, inlineStyleHash, type ClientManifest } from '../server/files/client-assets.ts';
import { APP_ROOT } from '../server/paths.ts';

const dist = path.join(APP_ROOT, 'dist');
const clientOut = path.join(dist, 'client');
const assetsOut = path.join(clientOut, 'assets');

rmSync(dist, { recursive: true, force: true });
mkdirSync(assetsOut, { recursive: true });

const browser = {
  absWorkingDir: APP_ROOT,
  outdir: assetsOut,
  entryNames: '[name]-[hash]',
  bundle: true,
  platform: 'browser',
  target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
  minify: true,
  metafile: true,
  logLevel: 'warning',
} satisfies esbuild.BuildOptions;

const client = await esbuild.build({
  ...browser,
  entryPoints: { client: 'client/entry.tsx' },
  chunkNames: 'chunk-[hash]',
  splitting: true,
  format: 'esm',
  sourcemap: 'linked',
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Most of the bundle runs while the page starts; this V8 hint has it compiled eagerly, off the
  // main thread while it downloads, instead of function by function on the main thread.
  banner: { js: '//# allFunctionsCalledOnLoad' },
});

// Every page carries the stylesheet inline, byte for byte as in this file, so the file names
// no source map (it is written beside it all the same).
const styles = await esbuild.build({ ...browser, entryPoints: { styles: 'client/styles.css' }, sourcemap: 'external' });

const outputs = [...Object.entries(client.metafile.outputs), ...Object.entries(styles.metafile.outputs)];
const publicPath = (entry: string) => {
  const found = outputs.find(([file, meta]) => meta.entryPoint?.endsWith(entry) && !file.endsWith('.map'));
  if (!found) throw new Error(`No build output for ${entry}`);
  return `/assets/${path.basename(found[0])}`;
};
const stylesheet = publicPath('client/styles.css');
const css = readFileSync(path.join(clientOut, stylesheet));
const notInlineable = cannotInline(css);
if (notInlineable) throw new Error(`client/styles.css cannot be inlined in the pages: ${notInlineable}`);
const manifest: ClientManifest = {
  script: publicPath('client/entry.tsx'),
  stylesheet,
  // The Content-Security-Policy allows the pages' <style> element by this hash.
  stylesheetSha256: inlineStyleHash(css),
};
writeFileSync(path.join(clientOut, ASSET_MANIFEST), JSON.stringify(manifest, null, 2));

for (const [file] of outputs) {
  if (!/\.(js|css)$/.test(file)) continue;
  const body = readFileSync(path.join(APP_ROOT, file));
  writeFileSync(
    `${path.join(APP_ROOT, file)}.br`,
    brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(`${path.join(APP_ROOT, file)}.gz`, gzipSync(body, { level: 9 }));
}

await esbuild.build({
  absWorkingDir: APP_ROOT,
  entryPoints: ['server/index.ts'],
  outfile: path.join(dist, 'server', 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  jsx: 'automatic',
  logLevel: 'warning',
});

const sizes = outputs
  .filter(([file]) => /\.(js|css)$/.test(file))
  .map(([file, meta]) => `${path.basename(file)} ${(meta.bytes / 1024).toFixed(1)} KB`);
console.log(`Built ${sizes.join(', ')}`);
