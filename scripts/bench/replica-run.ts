import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';
import { launchBrowser } from '../harness/chromium.ts';
import { startVarnish } from '../harness/edge-caches.ts';
import { startServer } from '../harness/server-process.ts';
import { cpuTimeMs, limitCpu, millicores } from './cpu-limit.ts';
import { varnishInstalled } from './edge.ts';
import { imageEnvironment, imageNodeArgs, startBenchBackend } from './image-server.ts';
import { runWrkMix, unexpectedAnswers, type MixedRequest } from './load.ts';
import { replicasFor, scalingSettings, type Crowd } from './runbook.ts';
import { recordVisits, type VisitorRequest } from './visit.ts';
import { fetchRaw } from './weight.ts';
import { buildProduction } from '../harness/build.ts';

const ACCEPT_ENCODING = { 'accept-encoding': 'br, gzip' };
/** Visitors replayed through Varnish to count what still reaches the server. */
const REPLAYED_VISITORS = 200;

export interface ReplicaOptions {
  crowd: Crowd;
  /** Load per run, and the connections that bring it. */
  seconds: number;
  connections: number;
}

/**
 * npm run bench -- --replica: what the event-day runbook needs. Counts the requests one visitor's
 * browser makes (Chromium, a phone's screen: a first visit with the overlay's choice and a
 * return, each scrolled to the end), how many of them still reach the server through the shipped
 * Varnish, and the rate one replica answers held to the manifest's CPU request (a cgroup CFS
 * quota, as the kubelet sets one) on that visitor's mix; then how many replicas a crowd needs
 * with the edge in front and without. Writes bench-results/replica.json.
 */
export async function runReplica(options: ReplicaOptions): Promise<string[]> {
  const failures: string[] = [];
  const scaling = scalingSettings();
  console.log('Building the production server …');
  buildProduction();
  const outDir = path.join(APP_ROOT, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const backend = await startBenchBackend();
  const server = await startServer(
    {
      ...imageEnvironment(),
      SUPABASE_URL: backend.url,
      SUPABASE_ANON_KEY: backend.key,
      CACHE_SNAPSHOT_PATH: path.join(outDir, 'replica-snapshot.json'),
    },
    imageNodeArgs(),
  );
  try {
    // ---- One visitor's requests.
    const browser = await launchBrowser();
    const answered = () =>
      server.logs
        .filter((line) => line.msg === 'request completed')
        .map((line) => ({ path: String(line.path), status: Number(line.status) }));
    const visits = await recordVisits(browser, server.url, answered).finally(() => browser.close());
    for (const [what, requests] of [
      ['A first visit', visits.firstVisit],
      ['A returning visit', visits.returning],
    ] as const) {
      console.log(`\n${what}: ${requests.length} requests reached the server`);
      for (const r of requests) console.log(`  ${r.status} ${r.path}${r.cookie ? ` (cookie ${r.cookie})` : ''}`);
      const failed = requests.filter((r) => r.status >= 400);
      if (failed.length) failures.push(`${what} got ${failed.map((r) => `${r.status} ${r.path}`).join(', ')}`);
    }
    const perVisitor = visits.firstVisit.length;

    // ---- What still reaches the server through the shipped Varnish.
    let perVisitorThroughEdge: number | null = null;
    if (varnishInstalled()) {
      const origin = new URL(server.url);
      const varnish = await startVarnish({ host: origin.hostname, port: Number(origin.port) });
      try {
        // The first visitor fills the cache; the crowd after it is what an event brings.
        await replayVisitor(varnish.url, visits.firstVisit);
        const before = answered().length;
        for (let visitor = 0; visitor < REPLAYED_VISITORS; visitor++) {
          await replayVisitor(varnish.url, visitor % 2 ? visits.returning : visits.firstVisit);
        }
        await new Promise((resolve) => setTimeout(resolve, 500)); // the server's log lines of the last answers
        const reached = answered().length - before;
        perVisitorThroughEdge = reached / REPLAYED_VISITORS;
        console.log(
          `\nThrough the shipped Varnish, ${REPLAYED_VISITORS} visitors (half first visits, half returning) after the first: ${reached} requests reached the server = ${perVisitorThroughEdge} per visitor`,
        );
      } finally {
        await varnish.stop();
      }
    } else {
      console.log(
        '\nvarnishd is not installed (apt-get install -y varnish): the plan with the edge in front is left out',
      );
    }

    // ---- One replica's rate at the pod's CPU request.
    const mix: MixedRequest[] = visits.firstVisit.map((r) => ({
      path: r.path,
      headers: { ...ACCEPT_ENCODING, ...(r.cookie ? { cookie: `selectedLanguage=${r.cookie}` } : {}) },
    }));
    const cpu = millicores(scaling.cpuRequest);
    const limit = limitCpu(server.child.pid!, cpu);
    let replicaRequestsPerSecond: number;
    try {
      await runWrkMix(server.url, mix, options.connections, 3); // warm, as a pod is before the crowd
      const cpuBefore = cpuTimeMs(server.child.pid!);
      const started = performance.now();
      const result = await runWrkMix(server.url, mix, options.connections, options.seconds);
      const cpuShare = (cpuTimeMs(server.child.pid!) - cpuBefore) / (performance.now() - started);
      const problems = unexpectedAnswers(result, { socketErrors: true });
      if (problems.length) failures.push(`the replica's run: ${problems.join(', ')}`);
      replicaRequestsPerSecond = Math.round(result.requestsPerSecond);
      console.log(
        `\nOne replica held to ${scaling.cpuRequest} of CPU (it used ${Math.round(cpuShare * 1000)}m), ${options.connections} connections for ${options.seconds} s on a first visit's requests: ${replicaRequestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${result.errors ? `, ${result.errors} socket errors` : ''} = ${Math.round(replicaRequestsPerSecond / perVisitor)} visitors a second`,
      );
    } finally {
      limit.release();
    }

    // ---- The plan.
    const { crowd } = options;
    const withoutEdge = replicasFor(crowd, perVisitor, replicaRequestsPerSecond, scaling);
    const withEdge =
      perVisitorThroughEdge === null
        ? null
        : replicasFor(crowd, perVisitorThroughEdge, replicaRequestsPerSecond, scaling);
    console.log(
      `\n${crowd.visitors} visitors in ${crowd.minutes} minutes, the busiest moment ${crowd.peakFactor}× the average, replicas kept at ${scaling.targetUtilization * 100} % of their CPU request (the autoscaler's target), one spare for a replica lost during the peak, never fewer than minReplicas ${scaling.minReplicas}:`,
    );
    console.table([
      {
        in: 'without an edge',
        'requests/visitor': perVisitor,
        'req/s at the peak': withoutEdge.requestsPerSecond,
        'replicas carrying it': withoutEdge.carrying,
        'to have ready': withoutEdge.replicas,
      },
      ...(withEdge && perVisitorThroughEdge !== null
        ? [
            {
              in: 'the shipped Varnish in front',
              'requests/visitor': perVisitorThroughEdge,
              'req/s at the peak': withEdge.requestsPerSecond,
              'replicas carrying it': withEdge.carrying,
              'to have ready': withEdge.replicas,
            },
          ]
        : []),
    ]);
    const resultsFile = path.join(outDir, 'replica.json');
    writeFileSync(
      resultsFile,
      JSON.stringify(
        {
          scaling,
          crowd,
          visits,
          perVisitor,
          perVisitorThroughEdge,
          replicaRequestsPerSecond,
          withoutEdge,
          withEdge,
          failures,
        },
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

/** One visitor's requests through the cache, in order, as the browser made them. */
async function replayVisitor(cacheUrl: string, requests: VisitorRequest[]): Promise<void> {
  for (const r of requests) {
    await fetchRaw(cacheUrl + r.path, {
      ...ACCEPT_ENCODING,
      ...(r.cookie ? { cookie: `selectedLanguage=${r.cookie}` } : {}),
    });
  }
}
