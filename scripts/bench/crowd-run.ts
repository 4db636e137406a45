import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LiveAnswer } from '../../shared/api.ts';
import { APP_ROOT } from '../../server/config/paths.ts';
import { startVarnish } from '../harness/edge-caches.ts';
import { startServer } from '../harness/server-process.ts';
import { cpuTimeMs } from './cpu-limit.ts';
import { startTabs } from './crowd-tabs.ts';
import { imageEnvironment, imageNodeArgs } from './image-server.ts';
import { buildProduction } from '../harness/build.ts';

export interface CrowdOptions {
  tabs: number;
  pollSeconds: number;
  seconds: number;
  /** When the live file changes, in seconds from the start of the polling. */
  changeAfterSeconds: number;
  connections: number;
  /** Seconds the server's CPU time is measured before the tabs open, with Varnish's probes alone. */
  idleSeconds: number;
  smoke: boolean;
}

/** The server's defaults, which the bound on seeing a change is made of. */
const LIVE_EDGE_SECONDS = 5;
const LIVE_FILE_CHECK_SECONDS = 5;

const liveFileSaying = (text: string) => ({ notice: { level: 'info', text: { de: text, en: text, es: text } } });

/**
 * `npm run bench -- --crowd`: open pages polling /api/live through the shipped Varnish in front
 * of the server run with the image's settings. The live file changes once during the run.
 * Reports what the edge got and what reached the server a minute, the share of 304s, the
 * server's CPU time, and how long the tabs took to see the change; writes bench-results/crowd.json.
 * Returns what went wrong: errors, unexpected answers, a tab that never saw the change, and
 * (not in a smoke run) a tab that saw it later than its bound.
 */
export async function runCrowd(options: CrowdOptions): Promise<string[]> {
  const failures: string[] = [];
  console.log('Building the production server …');
  buildProduction();
  const outDir = path.join(APP_ROOT, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const liveDir = mkdtempSync(path.join(os.tmpdir(), 'crowd-live-'));
  const livePath = path.join(liveDir, 'live.json');
  const writeLive = (content: unknown) => {
    writeFileSync(`${livePath}.tmp`, JSON.stringify(content));
    renameSync(`${livePath}.tmp`, livePath);
  };
  writeLive(liveFileSaying('Doors open at 17:30.'));

  const server = await startServer(
    {
      ...imageEnvironment(),
      LIVE_PATH: livePath,
      LIVE_EDGE_SECONDS: String(LIVE_EDGE_SECONDS),
      LIVE_FILE_CHECK_SECONDS: String(LIVE_FILE_CHECK_SECONDS),
    },
    imageNodeArgs(),
    { stdout: 'discard' },
  );
  const origin = new URL(server.url);
  const varnish = await startVarnish({ host: origin.hostname, port: Number(origin.port) });
  try {
    const liveRequests = async () => serverRequests(server.metricsUrl!);
    const idleStarted = Date.now();
    const idleCpuBefore = cpuTimeMs(server.child.pid!);
    await sleep(options.idleSeconds * 1000);
    const idleCpuPerMinute = options.idleSeconds
      ? ((cpuTimeMs(server.child.pid!) - idleCpuBefore) / 1000 / ((Date.now() - idleStarted) / 1000)) * 60
      : null;
    const requestsBefore = await liveRequests();
    const cpuBefore = cpuTimeMs(server.child.pid!);
    const started = Date.now();
    console.log(
      `${options.tabs} tabs poll /api/live through Varnish every ${options.pollSeconds} s × [0.5, 1] for ${options.seconds} s; the live file changes after ${options.changeAfterSeconds} s`,
    );
    const tabs = startTabs({
      url: `${varnish.url}/api/live`,
      tabs: options.tabs,
      pollSeconds: options.pollSeconds,
      connections: options.connections,
    });

    await sleep(options.changeAfterSeconds * 1000);
    const direct = directAsker(server.url);
    const oldVersion = (await direct.ask()).version;
    const changedAt = Date.now();
    writeLive(liveFileSaying('Doors open at 18:00.'));
    tabs.expect(await changedVersion(direct, oldVersion, changedAt));

    await sleep(started + options.seconds * 1000 - Date.now());
    const figures = await tabs.stop();
    const seconds = (Date.now() - started) / 1000;
    const cpuSeconds = (cpuTimeMs(server.child.pid!) - cpuBefore) / 1000;
    // The server's counter holds the benchmark's own requests for the new version too.
    const reached = (await liveRequests()) - requestsBefore - direct.asked();

    const delays = figures.firstSeen.filter((at): at is number => at !== null).map((at) => (at - changedAt) / 1000);
    delays.sort((a, b) => a - b);
    const unseen = options.tabs - delays.length;
    const boundSeconds = options.pollSeconds + LIVE_FILE_CHECK_SECONDS + LIVE_EDGE_SECONDS;
    const perMinute = (count: number) => Math.round((count / seconds) * 60 * 10) / 10;
    const report = {
      smoke: options.smoke,
      tabs: options.tabs,
      pollSeconds: options.pollSeconds,
      seconds: Math.round(seconds * 10) / 10,
      connections: options.connections,
      edgeRequests: figures.requests,
      edgeRequestsPerMinute: perMinute(figures.requests),
      serverRequests: reached,
      serverRequestsPerMinute: perMinute(reached),
      notModifiedShare: Math.round((figures.notModified / Math.max(1, figures.requests)) * 1000) / 10,
      unexpectedAnswers: figures.unexpected,
      errors: figures.errors,
      serverCpuSeconds: Math.round(cpuSeconds * 100) / 100,
      serverCpuSecondsPerMinute: Math.round((cpuSeconds / seconds) * 60 * 100) / 100,
      serverIdleCpuSecondsPerMinute: idleCpuPerMinute === null ? null : Math.round(idleCpuPerMinute * 100) / 100,
      change: {
        tabsThatSawIt: delays.length,
        // The first tab's is the server's reading of the file and what was left of the edge's copy.
        firstSeconds: percentile(delays, 0),
        p95Seconds: percentile(delays, 0.95),
        maxSeconds: percentile(delays, 1),
        boundSeconds,
      },
    };

    console.log(`\n${options.smoke ? 'Smoke run: ' : ''}the crowd through Varnish (deploy/varnish/default.vcl)`);
    console.table({
      'requests the edge got, a minute': report.edgeRequestsPerMinute,
      'of them 304 (%)': report.notModifiedShare,
      '/api/live requests reaching the server, a minute': report.serverRequestsPerMinute,
      "server's CPU seconds over the run": report.serverCpuSeconds,
      "server's CPU seconds a minute": report.serverCpuSecondsPerMinute,
      '… before the tabs opened (probes alone)': report.serverIdleCpuSecondsPerMinute ?? 'not measured',
      'tabs that saw the change': `${delays.length} of ${options.tabs}`,
      'seconds until the first saw it': report.change.firstSeconds,
      'seconds until they saw it, p95': report.change.p95Seconds,
      'seconds until they saw it, max': report.change.maxSeconds,
      'bound: poll + file check + edge lifetime (s)': boundSeconds,
    });

    if (figures.errors || figures.unexpected)
      failures.push(
        `${figures.errors} requests without an answer, ${figures.unexpected} unexpected answers (${figures.problems.join('; ')})`,
      );
    if (unseen) failures.push(`${unseen} of ${options.tabs} tabs never saw the change`);
    if (!options.smoke && (report.change.maxSeconds ?? 0) > boundSeconds)
      failures.push(`a tab saw the change after ${report.change.maxSeconds} s, beyond the bound of ${boundSeconds} s`);

    const file = path.join(outDir, options.smoke ? 'crowd-smoke.json' : 'crowd.json');
    writeFileSync(file, `${JSON.stringify({ ...report, failures }, null, 2)}\n`);
    console.log(`\nFigures written to ${path.relative(APP_ROOT, file)}`);
  } finally {
    await varnish.stop();
    await server.stop();
    rmSync(liveDir, { recursive: true, force: true });
  }
  return failures;
}

/** /api/live asked of the server itself, past the edge, counted. */
function directAsker(serverUrl: string) {
  let asked = 0;
  return {
    async ask(): Promise<LiveAnswer> {
      asked++;
      return (await (await fetch(`${serverUrl}/api/live`)).json()) as LiveAnswer;
    },
    asked: () => asked,
  };
}

/** The version the server gives once it has read the change (it reads the file within its check). */
async function changedVersion(
  direct: ReturnType<typeof directAsker>,
  oldVersion: string,
  changedAt: number,
): Promise<string> {
  while (Date.now() - changedAt < (LIVE_FILE_CHECK_SECONDS + 2) * 1000) {
    const { version } = await direct.ask();
    if (version !== oldVersion) return version;
    await sleep(50);
  }
  throw new Error(`the server did not read the changed live file within ${LIVE_FILE_CHECK_SECONDS + 2} s`);
}

/** /api/live requests the server has answered, from its own counter on the metrics port. */
async function serverRequests(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  let total = 0;
  for (const [, count] of text.matchAll(/^http_requests_total\{[^}]*route="\/api\/live"[^}]*\} (\d+)$/gm))
    total += Number(count);
  return total;
}

function percentile(sorted: number[], share: number): number | null {
  if (sorted.length === 0) return null;
  const index = Math.max(0, Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1));
  return Math.round(sorted[index]! * 10) / 10;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
