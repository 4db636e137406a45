import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';
import { buildImage, IMAGE, podmanOk } from '../../scripts/harness/container.ts';
import { buildContext } from './build-context.ts';

/**
 * Fails the suite at once, with one line, without Podman; stands in the base image where no
 * registry is reachable (scripts/container/stand-in-base.sh), builds the Dockerfile from a copy of
 * the checkout and reports the image's size, its layers and the time the build took (also in
 * test-results/container/image.json).
 */
export default async function setup() {
  const found = spawnSync('podman', ['--version'], { stdio: 'ignore' });
  if (found.error || found.status !== 0) {
    throw new Error('podman is not installed: see .ci/run for the packages (the container suite never skips)');
  }
  const base = spawnSync(path.join(APP_ROOT, 'scripts/container/stand-in-base.sh'), { encoding: 'utf8' });
  if (base.status !== 0) throw new Error(`the stand-in base image could not be made:\n${base.stdout}${base.stderr}`);
  process.stdout.write(base.stdout);

  // From a copy of the checkout holding files that must not reach the image (./build-context.ts).
  const context = buildContext();
  let buildSeconds: number;
  try {
    buildSeconds = await buildImage(context.dir);
  } finally {
    context.remove();
  }
  const size = Number(await podmanOk(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
  const layers = (await podmanOk(['history', '--no-trunc', '--format', '{{.Size}}\t{{.CreatedBy}}', IMAGE]))
    .trim()
    .split('\n')
    .map((line) => {
      const [layerSize, createdBy] = line.split('\t') as [string, string];
      return { size: layerSize, step: createdBy.replace(/^\/bin\/sh -c (#\(nop\) )?/, '').slice(0, 100) };
    })
    .filter((layer) => layer.size !== '0B');
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(`Image ${IMAGE}: ${mb(size)}, built in ${buildSeconds.toFixed(0)} s; layers with content:`);
  for (const layer of layers) console.log(`  ${layer.size.padStart(9)}  ${layer.step}`);
  const results = path.join(APP_ROOT, 'test-results/container');
  mkdirSync(results, { recursive: true });
  writeFileSync(
    path.join(results, 'image.json'),
    JSON.stringify({ image: IMAGE, size, buildSeconds, layers }, null, 2),
  );
}
