import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeBody } from '../harness/content-coding.ts';
import { APP_ROOT } from '../../server/config/paths.ts';
import { startServer, waitUntilServing } from '../harness/server-process.ts';
import { imageEnvironment, imageNodeArgs, manifestMemoryLimit } from './image-server.ts';
import { runWrkMix, unexpectedAnswers, type MixedRequest } from './load.ts';
import { judgeSoak, minuteMarks, sampleRss } from './soak.ts';
import { appModuleOf, fetchRaw } from './weight.ts';
import { startPhotoBackend } from './photo-backend.ts';
import { buildProduction } from '../harness/build.ts';

/** Growth allowed after the warm-up, and the share of the manifest's limit the peak may take. */
const SLOPE_TARGET_MB_PER_MINUTE = 1;
const PEAK_SHARE_TARGET = 0.75;
/** The slope is measured from the end of the first minute (the caches and the heap settle in it). */
const SLOPE_FROM_MINUTE = 2;
const SAMPLE_EVERY_MS = 2000;
const ACCEPT_ENCODING = { 'accept-encoding': 'br, gzip' };

/**
 * What the soak asks for, in equal shares: the page in each language, the legal page, the slides,
 * the app module, and the pictures the server has made of the hero's photos so far.
 */
export function visitorsMix(appModule: string, pictures: readonly string[] = []): MixedRequest[] {
  return [
    { path: '/', headers: ACCEPT_ENCODING },
    { path: '/', headers: { ...ACCEPT_ENCODING, cookie: 'selectedLanguage=en' } },
    { path: '/', headers: { ...ACCEPT_ENCODING, cookie: 'selectedLanguage=es' } },
    { path: '/impressum', headers: ACCEPT_ENCODING },
    { path: '/api/hero-slides', headers: ACCEPT_ENCODING },
    { path: appModule, headers: ACCEPT_ENCODING },
    ...pictures.map((picture) => ({ path: picture, headers: ACCEPT_ENCODING })),
  ];
}

/**
 * The first slide's pictures a page preloads, made by the server, at their smallest width (a
 * phone's portrait crop and a wider screen's landscape picture): what every visitor's browser asks
 * this origin for, where the other widths and the slides not yet shown are asked for later and less.
 */
export function madePictures(html: string): string[] {
  const preloads = html.match(/<link rel="preload"[^>]*>/g) ?? [];
  // Its smallest candidate: React writes a preload with a srcset without href.
  return preloads.flatMap((link) => /imageSrcSet="(\/images\/photos\/[\w-]+\.\w+)/.exec(link)?.[1] ?? []);
}

/**
 * npm run bench -- --soak: the server as the image runs it, with a backend of camera photos, from
 * its start: once it reports ready, under the bench's full connection count for `minutes`
 * minutes, a minute's wrk run after another, on a mix of what visitors ask for (the page in each
 * language, the legal page, the slides, the app module, the first slide's pictures). Prints the
 * resident memory of the server and its photo encoder at each minute and its slope from minute
 * 2 to the end, and the peak against the manifest's limit; writes bench-results/soak.json.
 * Resolves to the targets it missed.
 */
export async function runSoak({ minutes, connections }: { minutes: number; connections: number }): Promise<string[]> {
  if (!Number.isInteger(minutes) || minutes <= SLOPE_FROM_MINUTE) {
    throw new Error(
      `--minutes takes a whole number above ${SLOPE_FROM_MINUTE} (the slope is measured from minute ${SLOPE_FROM_MINUTE})`,
    );
  }
  console.log('Building the production server …');
  buildProduction();
  const outDir = path.join(APP_ROOT, 'bench-results');
  mkdirSync(outDir, { recursive: true });

  // The backend's photos as a camera exports them: the server makes their pictures before it
  // reports ready, as a replica does at start, and the load waits for that, as a load balancer does.
  const { backend } = await startPhotoBackend();
  const env = imageEnvironment();
  const startedAt = performance.now();
  const server = await startServer(
    {
      ...env,
      SUPABASE_URL: backend.url,
      SUPABASE_ANON_KEY: backend.key,
      CACHE_SNAPSHOT_PATH: path.join(outDir, 'soak-snapshot.json'),
    },
    imageNodeArgs(),
    { stdout: 'discard' },
  );
  const failures: string[] = [];
  try {
    // From the start: the pictures made before the server reports ready count too.
    const sampler = sampleRss(server.child.pid!, SAMPLE_EVERY_MS);
    await waitUntilServing(`${server.url}/readyz`, 60_000);
    console.log(`The server reported ready ${((performance.now() - startedAt) / 1000).toFixed(1)} s after its start`);
    const pageNow = async () => {
      const page = await fetchRaw(`${server.url}/`, ACCEPT_ENCODING);
      return decodeBody(page.body, page.headers['content-encoding']).toString();
    };
    const appModule = appModuleOf(await pageNow());
    const mix = visitorsMix(appModule);
    let pictures: string[] = [];
    console.log(
      `Soak: ${minutes} min at ${connections} connections, wrk on a mix of ${mix.map((r) => r.path).join(', ')}; server ${Object.entries(
        env,
      )
        .map(([k, v]) => `${k}="${v}"`)
        .join(' ')}`,
    );

    const perMinute: { minute: number; requestsPerSecond: number; socketErrors: number }[] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      if (!pictures.length) {
        pictures = madePictures(await pageNow());
        if (pictures.length)
          console.log(`from minute ${minute}, the first slide's pictures too: ${pictures.join(', ')}`);
      }
      const result = await runWrkMix(server.url, visitorsMix(appModule, pictures), connections, 60);
      const problems = unexpectedAnswers(result, { socketErrors: true });
      if (problems.length) failures.push(`minute ${minute}: ${problems.join(', ')}`);
      perMinute.push({ minute, requestsPerSecond: Math.round(result.requestsPerSecond), socketErrors: result.errors });
      const rss = sampler.peek();
      console.log(
        `minute ${minute}/${minutes}: ${Math.round(result.requestsPerSecond)} req/s, resident ${rss.toFixed(1)} MB${result.errors ? `, ${result.errors} socket errors` : ''}`,
      );
    }
    const samples = sampler.stop();
    const limit = manifestMemoryLimit();
    const verdict = judgeSoak(samples, {
      fromMinute: SLOPE_FROM_MINUTE,
      toMinute: minutes,
      slopeMbPerMinute: SLOPE_TARGET_MB_PER_MINUTE,
      limitMib: limit.mib,
      peakShare: PEAK_SHARE_TARGET,
    });
    console.log(
      `\nResident memory grew ${verdict.slopeMbPerMinute} MB a minute from minute ${SLOPE_FROM_MINUTE} to ${minutes} (least squares over ${samples.length} samples; target < ${SLOPE_TARGET_MB_PER_MINUTE}): ${verdict.slopeHeld ? 'met' : 'NOT MET'}`,
    );
    console.log(
      `Peak ${verdict.peakMb} MB at minute ${verdict.peakMinute} = ${verdict.peakPercentOfLimit} % of the manifest's limit of ${limit.quantity} (target < ${PEAK_SHARE_TARGET * 100} %): ${verdict.peakHeld ? 'met' : 'NOT MET'}`,
    );
    if (!verdict.slopeHeld) failures.push(`memory grew ${verdict.slopeMbPerMinute} MB a minute`);
    if (!verdict.peakHeld) failures.push(`peak memory was ${verdict.peakPercentOfLimit} % of the limit`);
    const resultsFile = path.join(outDir, 'soak.json');
    writeFileSync(
      resultsFile,
      JSON.stringify(
        { minutes, connections, node: process.version, env, perMinute, marks: minuteMarks(samples), verdict, failures },
        null,
        2,
      ),
    );
    console.log(`Figures written to ${path.relative(APP_ROOT, resultsFile)}`);
  } finally {
    await Promise.all([server.stop(), backend.close()]);
  }
  return failures;
}
