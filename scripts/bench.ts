/**
 * npm run bench: the production server against a baseline on this machine, measured in one
 * run. Every target is loaded at 100 and 1,000 connections by wrk (autocannon in its own process
 * where wrk is not installed), round after round in the same order (A B A B …); the figures are
 * medians over the rounds. The server runs with the image's settings, and a second copy of the
 * same build without heap bounds answers `/` beside it. In every language the page offers, `/` is
 * set against the floor (scripts/bench/floor-server.ts: bare Express with helmet serving the same
 * page, no logging).
 * Prints a table, the peak memory beside the manifest's limit, `/` against the unbounded copy,
 * `/readyz`'s answer time while `/` saturates the server against the manifest's readiness probe, the page weight of a first
 * visit and beside it a returning visitor's whole visit in Chromium with the backend's photos (a
 * camera's, on a stand-in of its own; see scripts/bench/photo-weight.ts), by kind, and writes
 * bench-results/bench.json.
 *
 * Every target must answer as it should (2xx; the 404 target 404), the page must name its app
 * module, which must be served, a first visit's HTML, CSS and JavaScript must stay within their
 * budgets, and the returning visitor must get the server's pictures of the first slide and the
 * logo and nothing from the backend (a smoke run too): otherwise it stops, or exits with 1 at the
 * end, saying which.
 *
 * Options: --rounds N (default 3), --seconds N per run (default 5), --connections list
 * (default 100,1000), --generator wrk|autocannon (default wrk when installed).
 *
 * --soak [--minutes N]: instead of all that, the server alone under the largest connection count
 * for N minutes (default 10) on a mix of visitors' requests, judged on how fast its resident
 * memory grows after minute 2 and on its peak (see scripts/bench/soak-run.ts). Not run by CI.
 *
 * --replica [--visitors N] [--within M] [--peak F]: instead of all that, the figures of the
 * event-day runbook: one visitor's requests (counted in Chromium), what of them reaches the server
 * through the shipped Varnish, one replica's rate held to the manifest's CPU request, and the
 * replicas N visitors arriving within M minutes need (default 20,000 in 5, the busiest moment F = 2
 * times the average); see scripts/bench/replica-run.ts. Needs root for the CPU limit. Not run by CI.
 *
 * --live-bound [--trials N] [--tabs N]: instead of all that, how long after a notice is saved, in
 * the live file and then in the backend's row, every open tab shows it, end to end through the
 * shipped Varnish in Chromium, with the server's default intervals (default 3 changes each, 6
 * tabs); judged against the bound, the sum of the intervals (see scripts/bench/live-bound.ts).
 * With --smoke: short intervals, 2 changes, 3 tabs, not judged, as CI runs it.
 *
 * --crowd [--tabs N] [--poll S] [--seconds S] [--connections C]: instead of all that, N open pages
 * (default 10,000) polling /api/live through the shipped Varnish every S × [0.5, 1] seconds
 * (default 30) for S seconds (default 120) over C keep-alive connections (default 64), the live
 * file changed once: the requests the edge got and those that reached the server a minute, the
 * 304 share, the server's CPU time (beside 15 s of it before the tabs open) and how long until
 * every tab saw the change; see
 * scripts/bench/crowd-run.ts. With --smoke, 1,000 tabs polling every 10 s for 20 s, as CI runs it.
 *
 * --smoke: the same run in a few seconds of load, as CI runs it (1 round of 1 s at 50 connections
 * unless the options above say otherwise; through Varnish too where varnishd is installed). It
 * also fails on any socket error, prints the figures without judging them against the memory and
 * throughput targets (seconds of load on a shared machine cannot tell), and writes
 * bench-results/bench-smoke.json instead.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { APP_ROOT } from '../server/config/paths.ts';
import { startListening, startServer, waitUntilServing, type RunningServer } from './harness/server-process.ts';
import { runCrowd } from './bench/crowd-run.ts';
import { benchThroughVarnish, printEdgeRows } from './bench/edge.ts';
import { imageEnvironment, imageNodeArgs, manifestMemoryLimit, startBenchBackend } from './bench/image-server.ts';
import { chooseLoadGenerator, runWrkMix, unexpectedAnswers, type LoadResult } from './bench/load.ts';
import { median } from './bench/median.ts';
import { watchPeakRss } from './bench/memory.ts';
import { judgeReadiness, manifestReadinessProbe, probeReadiness, type ProbeAnswer } from './bench/readiness.ts';
import { DEFAULT_INTERVALS, runLiveBound, SMOKE_INTERVALS } from './bench/live-bound.ts';
import { runReplica } from './bench/replica-run.ts';
import { runSoak, visitorsMix } from './bench/soak-run.ts';
import {
  appModuleOf,
  offeredLanguagesOf,
  fetchRaw,
  firstVisitWeight,
  overWeightBudget,
  WEIGHT_BUDGET,
} from './bench/weight.ts';
import { BYTE_KINDS, kib } from './bench/bytes-by-kind.ts';
import { measurePhotoWeight } from './bench/photo-weight.ts';
import { decodeBody } from './harness/content-coding.ts';
import { buildProduction } from './harness/build.ts';

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    generator: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    minutes: { type: 'string' },
    replica: { type: 'boolean', default: false },
    visitors: { type: 'string' },
    within: { type: 'string' },
    peak: { type: 'string' },
    'live-bound': { type: 'boolean', default: false },
    trials: { type: 'string' },
    crowd: { type: 'boolean', default: false },
    tabs: { type: 'string' },
    poll: { type: 'string' },
  },
});
const SMOKE = options.smoke;
const ROUNDS = Number(options.rounds ?? (SMOKE ? 1 : 3));
const SECONDS = Number(options.seconds ?? (SMOKE ? 1 : 5));
const CONNECTIONS = (options.connections ?? (SMOKE ? '50' : '100,1000')).split(',').map(Number);
const VARNISH_CONNECTIONS = [SMOKE ? Math.min(100, ...CONNECTIONS) : 100];
for (const [name, value] of Object.entries({
  rounds: ROUNDS,
  seconds: SECONDS,
  connections: Math.min(...CONNECTIONS),
})) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes whole numbers of at least 1`);
}

if (options.soak) {
  const missed = await runSoak({
    minutes: Number(options.minutes ?? 10),
    connections: Math.max(...(options.connections ?? '100,1000').split(',').map(Number)),
  });
  if (missed.length) console.error(`\nThe soak FAILED: ${missed.join('; ')}`);
  process.exit(missed.length ? 1 : 0);
}

if (options.crowd) {
  const missed = await runCrowd({
    tabs: Number(options.tabs ?? (SMOKE ? 1000 : 10_000)),
    pollSeconds: Number(options.poll ?? (SMOKE ? 10 : 30)),
    seconds: Number(options.seconds ?? (SMOKE ? 20 : 120)),
    // Halfway through a copy's lifetime at the edge: its copies follow the polling's start in steps of 5 s.
    changeAfterSeconds: SMOKE ? 1.5 : 42.5,
    connections: Number(options.connections ?? 64),
    idleSeconds: SMOKE ? 0 : 15,
    smoke: SMOKE,
  });
  if (missed.length) console.error(`\nThe crowd run FAILED: ${missed.join('; ')}`);
  process.exit(missed.length ? 1 : 0);
}

if (options.replica) {
  const missed = await runReplica({
    crowd: {
      visitors: Number(options.visitors ?? 20_000),
      minutes: Number(options.within ?? 5),
      peakFactor: Number(options.peak ?? 2),
    },
    seconds: Number(options.seconds ?? 20),
    connections: Number(options.connections ?? 100),
  });
  if (missed.length) console.error(`\nThe replica run FAILED: ${missed.join('; ')}`);
  process.exit(missed.length ? 1 : 0);
}

if (options['live-bound']) {
  const missed = await runLiveBound({
    intervals: SMOKE ? SMOKE_INTERVALS : DEFAULT_INTERVALS,
    trials: Number(options.trials ?? (SMOKE ? 2 : 3)),
    tabs: Number(options.tabs ?? (SMOKE ? 3 : 6)),
    smoke: SMOKE,
  });
  if (missed.length) console.error(`\nThe live bound run FAILED: ${missed.join('; ')}`);
  process.exit(missed.length ? 1 : 0);
}

const generator = chooseLoadGenerator(options.generator);
/** Peak resident memory may take this share of the manifest's memory limit. */
const MEMORY_SHARE_TARGET = 0.75;
/** `/` with the image's heap bounds keeps at least this share of the throughput of the same build without them. */
const BOUNDED_THROUGHPUT_TARGET = 0.8;
const OUT_DIR = path.join(APP_ROOT, 'bench-results');
/** A target's verdict; seconds of load cannot judge memory or throughput, so a smoke run prints the figures alone. */
const verdict = (held: boolean) => (SMOKE ? 'not judged in a smoke run' : held ? 'met' : 'NOT MET');
const ACCEPT_ENCODING = { 'accept-encoding': 'br, gzip' };

interface Target {
  name: string;
  server: RunningServer;
  path: string;
  headers: Record<string, string>;
  /** The status every answer must have; by default any 2xx. */
  status?: number;
}

/** What went wrong, one line each: a run with any of them exits with 1. */
const failures: string[] = [];
const answersAsExpected = (status: number, expected: number | undefined) =>
  expected === undefined ? status >= 200 && status < 300 : status === expected;

/** Checks one load run (see unexpectedAnswers); in a smoke run socket errors fail it too. */
function checkRun(what: string, result: LoadResult, expected?: number): void {
  const problems = unexpectedAnswers(result, { status: expected, socketErrors: !SMOKE });
  if (problems.length) failures.push(`${what}: ${problems.join(', ')}`);
}

// ---- Build and start everything.
console.log(`Load generator: ${generator.description}`);
console.log('Building the production server …');
buildProduction();

mkdirSync(OUT_DIR, { recursive: true });

// The server talks to a Supabase stand-in on loopback, as in production it talks to the backend.
const backend = await startBenchBackend();
// Run the server as the container image does, with the image's environment (its memory settings) and Node flags;
// only the addresses are the benchmark's own.
const imageEnv = imageEnvironment();
const serverEnv = (env: Record<string, string>, snapshot: string) => ({
  ...env,
  SUPABASE_URL: backend.url,
  SUPABASE_ANON_KEY: backend.key,
  CACHE_SNAPSHOT_PATH: path.join(OUT_DIR, snapshot),
});
// The same build without any heap bounds (nor the malloc arena limit), for the throughput the bounds cost.
const { NODE_OPTIONS: _heapBounds, MALLOC_ARENA_MAX: _arenas, ...unboundedEnv } = imageEnv;
const [app, unbounded] = await Promise.all([
  startServer(serverEnv(imageEnv, 'backend-snapshot.json'), imageNodeArgs(), { stdout: 'discard' }),
  startServer(serverEnv(unboundedEnv, 'backend-snapshot-unbounded.json'), imageNodeArgs(), { stdout: 'discard' }),
]);
const watchExit = (server: RunningServer, which: string) => {
  const died = (code: number | null, signal: NodeJS.Signals | null) => {
    console.error(
      `The ${which} stopped during the benchmark (exit ${code ?? signal}): ${server.stderr().trim() || 'no message'}`,
    );
    process.exit(1);
  };
  server.child.once('exit', died);
  return () => server.child.off('exit', died);
};
const unwatch = [watchExit(app, 'server'), watchExit(unbounded, 'server without heap bounds')];
// Ready, as a load balancer waits for: the backend's answers kept and the hero's pictures made
// (their encoder ended), so the measured requests are all cache hits.
await Promise.all([app, unbounded].map((server) => waitUntilServing(`${server.url}/readyz`, 60_000)));
const page = await fetchRaw(`${app.url}/`, ACCEPT_ENCODING);
if (page.status !== 200) throw new Error(`GET / answered ${page.status}: ${page.body.toString().slice(0, 200)}`);
const html = decodeBody(page.body, page.headers['content-encoding']).toString();
// The app module, found as the browser finds it: the page's inline starter imports it.
const appModule = appModuleOf(html);
const BOUNDED_PAGE = 'GET / de, no cookie';
const UNBOUNDED_PAGE = 'GET / de, no heap bounds';

// The floor the origin is held to, in every language: bare Express with helmet answering every GET
// with the same page's bytes gzipped at level 6, no logging; asked, like the server beside it, by
// a visitor who chose the language and takes gzip.
const GZIP_ONLY = { 'accept-encoding': 'gzip' };
const languageCodes = offeredLanguagesOf(html);
const floors = await Promise.all(
  languageCodes.map(async (language) => {
    const headers = { ...GZIP_ONLY, cookie: `selectedLanguage=${language}` };
    const served = await fetchRaw(`${app.url}/`, headers);
    const page = decodeBody(served.body, served.headers['content-encoding']);
    const file = path.join(OUT_DIR, `floor-page-${language}.html.gz`);
    writeFileSync(file, gzipSync(page, { level: 6 }));
    const server = await startListening([
      '--import',
      'tsx',
      path.join(APP_ROOT, 'scripts/bench/floor-server.ts'),
      file,
    ]);
    return { language, headers, server };
  }),
);
const pageOf = (language: string) => `GET / ${language}, gzip`;
const floorOf = (language: string) => `floor express+helmet ${language}`;
/**
 * The origin's `/` against the floor, in every language: below it, the short path for kept pages
 * (server/app.ts) is what is missing.
 */
const FLOOR_TARGET = 0.8;

const targets: Target[] = [
  { name: BOUNDED_PAGE, server: app, path: '/', headers: ACCEPT_ENCODING },
  { name: 'GET / en, cookie', server: app, path: '/', headers: { ...ACCEPT_ENCODING, cookie: 'selectedLanguage=en' } },
  { name: 'GET / es, cookie', server: app, path: '/', headers: { ...ACCEPT_ENCODING, cookie: 'selectedLanguage=es' } },
  { name: 'GET /impressum', server: app, path: '/impressum', headers: ACCEPT_ENCODING },
  { name: 'GET 404', server: app, path: '/no/such/page', headers: ACCEPT_ENCODING, status: 404 },
  { name: 'GET /api/hero-slides (warm)', server: app, path: '/api/hero-slides', headers: ACCEPT_ENCODING },
  { name: 'GET hashed asset (the app module)', server: app, path: appModule, headers: ACCEPT_ENCODING },
  { name: UNBOUNDED_PAGE, server: unbounded, path: '/', headers: ACCEPT_ENCODING },
  ...floors.flatMap(({ language, headers, server }) => [
    { name: floorOf(language), server, path: '/', headers },
    { name: pageOf(language), server: app, path: '/', headers },
  ]),
];

// Every target answers as it should before any load: a page that changed stops the bench at once.
for (const target of targets) {
  const { status } = await fetchRaw(target.server.url + target.path, target.headers);
  if (!answersAsExpected(status, target.status)) {
    throw new Error(
      `${target.name} (${target.path}) answered ${status}, not ${target.status ?? '2xx'}: the page or the server changed under the benchmark`,
    );
  }
}

// ---- Measure: every round runs every target at every concurrency, in the same order.
const runs = new Map<string, (LoadResult & { peakRssMb: number; peakAnonMb: number })[]>();
// The kubelet's readiness probe while `/` saturates the server at the largest connection count.
// It asks the metrics port, as the manifest has it; the visitors' port is asked beside it, for comparison.
const readinessProbe = manifestReadinessProbe();
const probedUrl = readinessProbe.port === 'metrics' ? app.metricsUrl! : app.url;
const SATURATED = Math.max(...CONNECTIONS);
const probeAnswers: ProbeAnswer[] = [];
const visitorsPortAnswers: ProbeAnswer[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const connections of CONNECTIONS) {
    for (const target of targets) {
      const stopWatching = watchPeakRss(target.server.child.pid!);
      const saturating = target.name === BOUNDED_PAGE && connections === SATURATED;
      const probing = saturating ? probeReadiness(probedUrl, readinessProbe) : undefined;
      const probingVisitorsPort =
        saturating && probedUrl !== app.url ? probeReadiness(app.url, readinessProbe) : undefined;
      const result = await generator.run(target.server.url + target.path, connections, SECONDS, target.headers);
      if (probing) probeAnswers.push(...(await probing()));
      if (probingVisitorsPort) visitorsPortAnswers.push(...(await probingVisitorsPort()));
      checkRun(`round ${round} c=${connections} ${target.name}`, result, target.status);
      const key = `${target.name}|${connections}`;
      const peak = stopWatching();
      runs.set(key, [...(runs.get(key) ?? []), { ...result, peakRssMb: peak.rssMb, peakAnonMb: peak.anonMb }]);
      process.stdout.write(
        `round ${round}/${ROUNDS} c=${connections} ${target.name}: ${Math.round(result.requestsPerSecond)} req/s, peak RSS ${peak.rssMb} MB${result.non2xx ? `, ${result.non2xx} answers with an error status` : ''}${result.errors ? `, ${result.errors} socket errors` : ''}\n`,
      );
    }
  }
}

// ---- Report.
interface Row extends LoadResult {
  target: string;
  connections: number;
  peakRssMb: number;
  peakAnonMb: number;
}
const rows: Row[] = [];
for (const connections of CONNECTIONS) {
  const medianOf = (name: string, field: keyof LoadResult | 'peakRssMb') =>
    median(runs.get(`${name}|${connections}`)!.map((r) => r[field]));
  for (const target of targets) {
    rows.push({
      target: target.name,
      connections,
      requests: medianOf(target.name, 'requests'),
      requestsPerSecond: Math.round(medianOf(target.name, 'requestsPerSecond')),
      p50Ms: medianOf(target.name, 'p50Ms'),
      p99Ms: medianOf(target.name, 'p99Ms'),
      errors: Math.max(...runs.get(`${target.name}|${connections}`)!.map((r) => r.errors)),
      non2xx: Math.max(...runs.get(`${target.name}|${connections}`)!.map((r) => r.non2xx)),
      bytesPerResponse: medianOf(target.name, 'bytesPerResponse'),
      peakRssMb: Math.max(...runs.get(`${target.name}|${connections}`)!.map((r) => r.peakRssMb)),
      peakAnonMb: Math.max(...runs.get(`${target.name}|${connections}`)!.map((r) => r.peakAnonMb)),
    });
  }
}

console.log(
  `\n${SMOKE ? 'Smoke run: ' : ''}Medians of ${ROUNDS} rounds, ${SECONDS} s each, loaded by ${generator.name}, Accept-Encoding: br, gzip; server ${Object.entries(
    imageEnv,
  )
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ')}`,
);
console.table(
  rows.map((r) => ({
    target: r.target,
    conns: r.connections,
    'req/s': r.requestsPerSecond,
    'p50 ms': r.p50Ms,
    'p99 ms': r.p99Ms,
    errors: r.errors,
    non2xx: r.non2xx,
    'bytes/resp': r.bytesPerResponse,
    'peak RSS MB': r.peakRssMb,
    'of it anon MB': r.peakAnonMb,
  })),
);

// ---- Memory against the manifest's limit, and what the heap bounds cost `/`.
const { quantity: limit, mib: limitMib } = manifestMemoryLimit();
const appRows = rows.filter((r) => targets.find((t) => t.name === r.target)!.server === app);
const peak = {
  rssMb: Math.max(...appRows.map((r) => r.peakRssMb)),
  anonMb: Math.max(...appRows.map((r) => r.peakAnonMb)),
};
const memory = {
  limit,
  peakRssMb: peak.rssMb,
  peakAnonMb: peak.anonMb,
  shareOfLimit: Math.round((peak.rssMb / limitMib) * 1000) / 10,
  within: peak.rssMb <= limitMib * MEMORY_SHARE_TARGET,
};
console.log(
  `\nPeak resident memory with the image's settings, over every run: ${peak.rssMb} MiB (of it ${peak.anonMb} MiB anonymous) = ${memory.shareOfLimit} % of the manifest's limit of ${limit} (target ≤ ${MEMORY_SHARE_TARGET * 100} %, ${Math.round(limitMib * MEMORY_SHARE_TARGET)} MiB): ${verdict(memory.within)}`,
);
/** A target's median rate at one connection count, from the table's rows. */
const rateOf = (name: string, connections: number) =>
  rows.find((r) => r.target === name && r.connections === connections)!.requestsPerSecond;
const boundsCost = CONNECTIONS.map((connections) => {
  const rps = (name: string) => rateOf(name, connections);
  const share = rps(BOUNDED_PAGE) / rps(UNBOUNDED_PAGE);
  return {
    connections,
    bounded: rps(BOUNDED_PAGE),
    unbounded: rps(UNBOUNDED_PAGE),
    share: Math.round(share * 1000) / 10,
  };
});
for (const { connections, bounded, unbounded: without, share } of boundsCost) {
  console.log(
    `GET / at ${connections} connections: ${bounded} req/s with the image's heap bounds, ${without} without = ${share} % (target ≥ ${BOUNDED_THROUGHPUT_TARGET * 100} %): ${verdict(share >= BOUNDED_THROUGHPUT_TARGET * 100)}`,
  );
}

const againstFloor = CONNECTIONS.flatMap((connections) =>
  languageCodes.map((language) => {
    const origin = rateOf(pageOf(language), connections);
    const floor = rateOf(floorOf(language), connections);
    return { connections, language, origin, floor, ratio: Math.round((origin / floor) * 100) / 100 };
  }),
);
console.log(
  `\nGET / against the floor (bare Express with helmet, the same page gzipped at level 6, no logging), in every language, Accept-Encoding: gzip, language cookie:`,
);
for (const { connections, language, origin, floor, ratio } of againstFloor) {
  console.log(
    `  ${language} at ${connections} connections: ${origin} req/s against ${floor} = ${ratio}× (target ≥ ${FLOOR_TARGET}×): ${verdict(ratio >= FLOOR_TARGET)}`,
  );
}

const readiness = judgeReadiness(probeAnswers, readinessProbe);
console.log(
  `${readinessProbe.path} on the ${readinessProbe.port} port while GET / at ${SATURATED} connections saturates the server: ${readiness.probes} probes, median ${readiness.medianMs} ms, slowest ${readiness.slowestMs} ms against the readiness probe's timeoutSeconds ${readinessProbe.timeoutSeconds} s; ${readiness.failed} failed, at most ${readiness.longestFailedRun} in a row (out of service at ${readinessProbe.failureThreshold}): ${verdict(readiness.keptInService)}`,
);
const onVisitorsPort = judgeReadiness(visitorsPortAnswers, readinessProbe);
if (visitorsPortAnswers.length > 0) {
  console.log(
    `  the same probe on the visitors' port, for comparison: median ${onVisitorsPort.medianMs} ms, slowest ${onVisitorsPort.slowestMs} ms, ${onVisitorsPort.failed} of ${onVisitorsPort.probes} over the timeout`,
  );
}

// ---- Through Varnish, as ratios to the direct figures of this run.
const throughVarnish = await benchThroughVarnish(
  app.url,
  [
    { name: 'GET /api/hero-slides (warm)', path: '/api/hero-slides', headers: ACCEPT_ENCODING },
    { name: 'GET / de, no cookie', path: '/', headers: ACCEPT_ENCODING },
    // A visitor who chose a language: the page is kept per variant.
    { name: 'GET / en, cookie', path: '/', headers: { ...ACCEPT_ENCODING, cookie: 'selectedLanguage=en' } },
  ],
  {
    rounds: ROUNDS,
    seconds: SECONDS,
    connections: VARNISH_CONNECTIONS,
    load: async (url, connections, seconds, headers, what) => {
      const result = await generator.run(url, connections, seconds, headers);
      checkRun(`c=${connections} ${what}`, result);
      return result;
    },
  },
);
printEdgeRows(throughVarnish);

// The soak's mix of requests (wrk's Lua script), a second of it, so that --soak cannot rot unseen.
if (SMOKE && generator.name === 'wrk') {
  const mixed = await runWrkMix(app.url, visitorsMix(appModule), Math.min(...CONNECTIONS), SECONDS);
  checkRun("the soak's mix of requests", mixed);
  console.log(
    `\nThe soak's mix of requests: ${Math.round(mixed.requestsPerSecond)} req/s, ${mixed.non2xx} answers with an error status`,
  );
}

const weight = await firstVisitWeight(`${app.url}/`, html);
const total = (kind: string) => weight.filter((d) => d.kind === kind).reduce((sum, d) => sum + d.bytes, 0);
console.log('\nPage weight of a first visit to / (compressed as served)');
console.table(
  (['html', 'css', 'js'] as const).map((kind) => ({
    kind,
    bytes: total(kind),
    KB: Math.round(total(kind) / 102.4) / 10,
    'budget KB': WEIGHT_BUDGET[kind] / 1024,
    within: total(kind) <= WEIGHT_BUDGET[kind] ? 'yes' : 'NO',
  })),
);
if (total('css') === 0) console.log('(no stylesheet request: the stylesheet is inline, in the HTML)');
// Sizes do not vary from run to run: a smoke run judges them too.
failures.push(...overWeightBudget(weight));

// A returning visitor with the backend's photos, on a server of its own started only now: making
// its pictures takes a core for some seconds, which the load runs above must not share.
console.log("\nMaking the pictures of the backend's photos, then visiting as a returning visitor in Chromium …");
const photoWeight = await measurePhotoWeight({
  ...imageEnv,
  CACHE_SNAPSHOT_PATH: path.join(OUT_DIR, 'backend-snapshot-photos.json'),
});
failures.push(...photoWeight.problems.map((problem) => `the returning visit with the backend's photos: ${problem}`));
const firstVisitKinds: Partial<Record<string, string>> = { document: 'html', script: 'js', css: 'css' };
console.log(
  `\nPage weight, side by side: a first visit's HTML, CSS and JavaScript (as above), and a returning visitor's whole visit (language chosen, cache cold; Chromium as Lighthouse's phone, 412 × 823 at 1.75) with the backend's photos, until the network is idle and before the hero first moves; as transferred`,
);
console.log(
  `The backend serves ${Object.entries(photoWeight.served)
    .map(([name, bytes]) => `${name} ${kib(bytes)} KiB`)
    .join(', ')}`,
);
console.table(
  [...BYTE_KINDS, 'total' as const].map((kind) => {
    const firstVisit = kind === 'total' ? weight : weight.filter((d) => d.kind === firstVisitKinds[kind]);
    const before = photoWeight.beforeFirstRotation?.[kind];
    return {
      kind,
      'first visit KiB':
        kind in firstVisitKinds || kind === 'total' ? kib(firstVisit.reduce((s, d) => s + d.bytes, 0)) : '–',
      'returning KiB': kib(photoWeight.byKind[kind]),
      'returning bytes': photoWeight.byKind[kind],
      'before the first move KiB': before === undefined ? 'no move' : kib(before),
    };
  }),
);
console.log(`The first slide's pictures: ${kib(photoWeight.firstSlideBytes)} KiB.`);

const resultsFile = path.join(OUT_DIR, SMOKE ? 'bench-smoke.json' : 'bench.json');
writeFileSync(
  resultsFile,
  JSON.stringify(
    {
      smoke: SMOKE,
      rounds: ROUNDS,
      secondsPerRun: SECONDS,
      node: process.version,
      generator: generator.name,
      rows,
      memory,
      boundsCost,
      againstFloor,
      readiness: { probe: readinessProbe, ...readiness, onVisitorsPort },
      throughVarnish,
      pageWeight: weight,
      returningWithPhotos: photoWeight,
      failures,
    },
    null,
    2,
  ),
);
console.log(`\nFigures written to ${path.relative(APP_ROOT, resultsFile)}`);

for (const stopWatching of unwatch) stopWatching();
await Promise.all([app.stop(), unbounded.stop(), ...floors.map(({ server }) => server.stop()), backend.close()]);

if (failures.length) {
  console.error(`\nThe benchmark FAILED (${failures.length}):`);
  for (const failure of failures) console.error(`  ${failure}`);
  process.exitCode = 1;
} else if (SMOKE) {
  console.log(
    `\nSmoke run passed: every target answered as it should, and the page's app module ${appModule} was served.`,
  );
}
