/**
 * Production build: the hashed browser bundle and stylesheet (with brotli and gzip
 * copies served as they are), their manifest, and the bundled server.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { ASSET_MANIFEST } from '../server/files/client-assets.ts';
import { APP_ROOT } from '../server/paths.ts';

const dist = path.join(APP_ROOT, 'dist');
// Built aside and swapped in at the end, so that a server or a test run started meanwhile (a second
// test suite builds too) never finds the last build half written or gone.
// At the same depth as dist/, so that the source maps' relative paths and the content hashes are the same.
const staging = path.join(APP_ROOT, `.build-${process.pid}`);
const previous = `${staging}-previous`;
const clientOut = path.join(staging, 'client');
const assetsOut = path.join(clientOut, 'assets');

rmSync(staging, { recursive: true, force: true });
mkdirSync(assetsOut, { recursive: true });

const client = await esbuild.build({
  absWorkingDir: APP_ROOT,
  entryPoints: { client: 'client/entry.tsx', styles: 'client/styles.css' },
  outdir: assetsOut,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  splitting: true,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  // Most of the bundle runs while the page starts; this V8 hint has it compiled eagerly, off the
  // main thread while it downloads, instead of function by function on the main thread.
  banner: { js: '//# allFunctionsCalledOnLoad' },
  logLevel: 'warning',
});

const outputs = Object.entries(client.metafile.outputs);
const publicPath = (entry: string) => {
  const found = outputs.find(([file, meta]) => meta.entryPoint?.endsWith(entry) && !file.endsWith('.map'));
  if (!found) throw new Error(`No build output for ${entry}`);
  return `/assets/${path.basename(found[0])}`;
};
writeFileSync(
  path.join(clientOut, ASSET_MANIFEST),
  JSON.stringify({ script: publicPath('client/entry.tsx'), stylesheet: publicPath('client/styles.css') }, null, 2),
);

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
  outfile: path.join(staging, 'server', 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  jsx: 'automatic',
  logLevel: 'warning',
});

swapIn(staging, dist);
rmSync(previous, { recursive: true, force: true });

const sizes = outputs
  .filter(([file]) => /\.(js|css)$/.test(file))
  .map(([file, meta]) => `${path.basename(file)} ${(meta.bytes / 1024).toFixed(1)} KB`);
console.log(`Built ${sizes.join(', ')}`);

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
