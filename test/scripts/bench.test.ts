import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { readClientManifest } from '../../server/static/client-assets.ts';
import { runProblems, type LighthouseReport } from '../../scripts/bench/lighthouse-figures.ts';
import { parseWrk, unexpectedAnswers, type LoadResult } from '../../scripts/bench/load.ts';
import {
  judgeReadiness,
  manifestReadinessProbe,
  probeReadiness,
  type ReadinessProbe,
} from '../../scripts/bench/readiness.ts';
import {
  appModuleOf,
  firstVisitWeight,
  offeredLanguagesOf,
  overWeightBudget,
  pageModules,
  WEIGHT_BUDGET,
} from '../../scripts/bench/weight.ts';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';

/**
 * The benchmarks' own checks (npm run bench, npm run bench:lighthouse): they must find the
 * JavaScript the page really loads, and fail rather than measure a page that changed under them.
 */
const { script: appModule } = readClientManifest(CLIENT_BUILD_DIR);

describe("the benchmark's view of the built server's page", () => {
  let server: RunningServer;
  let html: string;
  beforeAll(async () => {
    server = await startServer({}, [], { stdout: 'discard' });
    html = await (await fetch(`${server.url}/`)).text();
  });
  afterAll(() => server?.stop());

  it("finds the app module the page's inline starter imports, as the browser does", () => {
    expect(pageModules(html)).toEqual([appModule]);
    expect(appModuleOf(html)).toBe(appModule);
  });

  it('finds every language the page offers, from its alternates, for the floor of each', () => {
    expect(offeredLanguagesOf(html)).toEqual(['de', 'en', 'es']);
    expect(() => offeredLanguagesOf(html.replace(/<link rel="alternate"[^>]*>/g, ''))).toThrow(
      /no language alternates/,
    );
  });

  it('counts the app module in the weight of a first visit, compressed as served', async () => {
    const weight = await firstVisitWeight(`${server.url}/`, html);
    const js = weight.filter((download) => download.kind === 'js');
    expect(js.map((download) => download.url)).toContain(appModule);
    expect(js.reduce((sum, download) => sum + download.bytes, 0)).toBeGreaterThan(10_000);
    expect(js.every((download) => download.encoding === 'br')).toBe(true);
  });

  it('keeps the built page within its budgets, and names a kind over its budget', async () => {
    const weight = await firstVisitWeight(`${server.url}/`, html);
    expect(overWeightBudget(weight)).toEqual([]);
    const js = weight.find((download) => download.kind === 'js')!;
    expect(overWeightBudget([...weight, { ...js, url: '/assets/more.js', bytes: WEIGHT_BUDGET.js }])).toEqual([
      expect.stringMatching(/^a first visit's js is \d+ bytes, over its budget of 102400$/),
    ]);
  });

  it('throws, rather than count nothing, when the page loads no JavaScript', async () => {
    const withoutStarter = html.replace(/<script>[\s\S]*?<\/script>/, '');
    expect(() => appModuleOf(withoutStarter)).toThrow(/names no JavaScript module/);
    await expect(firstVisitWeight(`${server.url}/`, withoutStarter)).rejects.toThrow(/loads no JavaScript/);
  });

  it('throws when a module the page names is not served', async () => {
    const missing = html.replace(appModule, '/assets/app-MISSING.js');
    await expect(firstVisitWeight(`${server.url}/`, missing)).rejects.toThrow(/app-MISSING\.js.*answered 404/);
  });
});

describe('pageModules', () => {
  it('takes module scripts and inline imports, and skips classic scripts by address and data blocks', () => {
    const page = [
      '<script type="application/ld+json">{"url":"import(\\"/not.js\\")"}</script>',
      '<script type="application/json" id="data">{"a":"import(\'/nor.js\')"}</script>',
      '<script src="/classic.js"></script>',
      '<script type="module" src="/assets/entry.js"></script>',
      '<script>(()=>import("/assets/app.js"))()</script>',
      '<script type="module">import{a}from"/assets/shared.js";import "/side-effect.js"</script>',
    ].join('');
    expect(pageModules(page)).toEqual(['/assets/entry.js', '/assets/app.js', '/assets/shared.js']);
  });

  it('says what it found when a page loads more than one module', () => {
    expect(() => appModuleOf('<script type="module" src="/a.js"></script><script>import("/b.js")</script>')).toThrow(
      /loads 2 modules \(\/a\.js, \/b\.js\)/,
    );
  });
});

describe("a load run's answers", () => {
  const WRK_404 = `Running 1s test @ http://127.0.0.1:38673/no/such
  2 threads and 20 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    11.57ms    8.65ms  64.45ms   91.83%
    Req/Sec     0.96k   338.68     1.56k    75.00%
  Latency Distribution
     50%    8.82ms
     75%   12.69ms
     90%   17.72ms
     99%   53.84ms
  1913 requests in 1.01s, 51.79MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 1913
Requests/sec:   1897.76
Transfer/sec:     51.37MB
`;
  const run = (result: Partial<LoadResult>): LoadResult => ({
    requests: 1000,
    requestsPerSecond: 1000,
    p50Ms: 1,
    p99Ms: 2,
    errors: 0,
    non2xx: 0,
    bytesPerResponse: 100,
    ...result,
  });

  it("reads wrk's report: answers, error statuses, socket errors, latencies", () => {
    expect(parseWrk(WRK_404)).toEqual({
      requests: 1913,
      requestsPerSecond: 1897.76,
      p50Ms: 8.82,
      p99Ms: 53.84,
      errors: 3,
      non2xx: 1913,
      bytesPerResponse: Math.round((51.79 * 1024 ** 2) / 1913),
    });
  });

  it('passes a target that answered as it should', () => {
    expect(unexpectedAnswers(run({}))).toEqual([]);
    expect(unexpectedAnswers(run({ non2xx: 1000 }), { status: 404 })).toEqual([]);
    expect(unexpectedAnswers(run({ errors: 3 }), { socketErrors: true })).toEqual([]);
  });

  it('fails error statuses, a 404 target answering otherwise, no answers, and socket errors unless allowed', () => {
    expect(unexpectedAnswers(run({ non2xx: 3 }))).toEqual(['3 of 1000 answers with an error status']);
    expect(unexpectedAnswers(run({ non2xx: 990 }), { status: 404 })).toEqual(['10 of 1000 answers not 404']);
    expect(unexpectedAnswers(run({ requests: 0 }))).toEqual(['no answers at all']);
    expect(unexpectedAnswers(run({ errors: 3 }))).toEqual(['3 socket errors']);
  });
});

describe('a Lighthouse run of the page', () => {
  const PAGE = 'http://127.0.0.1:4000/';
  const report = (requests: object[], extra: Partial<LighthouseReport> = {}): LighthouseReport => ({
    categories: {
      performance: { score: 1 },
      accessibility: { score: 1 },
      'best-practices': { score: 1 },
      seo: { score: 1 },
    },
    audits: { 'network-requests': { details: { type: 'table', items: requests } } },
    environment: { benchmarkIndex: 2000 },
    requestedUrl: PAGE,
    ...extra,
  });
  const document = { url: PAGE, resourceType: 'Document', statusCode: 200, finished: true };
  const module = { url: `http://127.0.0.1:4000${appModule}`, resourceType: 'Script', statusCode: 200, finished: true };

  it('passes when the app module was requested and arrived with 200', () => {
    expect(runProblems(report([document, module]), appModule)).toEqual([]);
  });

  it("fails when the page's JavaScript did not load", () => {
    expect(runProblems(report([document]), appModule)).toEqual([
      `the page's JavaScript did not load: no request for its app module ${appModule}`,
    ]);
    expect(runProblems(report([document, { ...module, statusCode: 404 }]), appModule)).toEqual([
      `the page's JavaScript did not load: its app module ${appModule} answered 404`,
    ]);
    expect(runProblems(report([document, { ...module, url: `http://cdn.example${appModule}` }]), appModule)).toEqual([
      `the page's JavaScript did not load: no request for its app module ${appModule}`,
    ]);
  });

  it('fails when Lighthouse reports an error or cannot score a category', () => {
    const failed = report([document, module], {
      runtimeError: { code: 'ERRORED_DOCUMENT_REQUEST', message: 'Status code: 500.' },
    });
    failed.categories.performance.score = null;
    expect(runProblems(failed, appModule)).toEqual([
      'Lighthouse: ERRORED_DOCUMENT_REQUEST Status code: 500.',
      'no performance score',
    ]);
  });
});

describe("/readyz's answers under load, judged as the kubelet would", () => {
  const probe: ReadinessProbe = {
    path: '/readyz',
    port: 'metrics',
    periodSeconds: 5,
    timeoutSeconds: 5,
    failureThreshold: 3,
  };
  const ok = (ms: number) => ({ status: 200, ms });

  it("reads the manifest's readiness probe", () => {
    expect(manifestReadinessProbe()).toEqual(probe);
  });

  it('keeps the pod in service while fewer probes than failureThreshold fail in a row', () => {
    const answers = [ok(10), ok(5200), { status: 503, ms: 3 }, ok(20), ok(6000), ok(30)];
    expect(judgeReadiness(answers, probe)).toEqual({
      probes: 6,
      medianMs: 25,
      slowestMs: 6000,
      failed: 3,
      longestFailedRun: 2,
      keptInService: true,
    });
  });

  it('takes it out at failureThreshold slow or failed probes in a row', () => {
    const answers = [ok(10), ok(5001), { status: 0, ms: 5000 }, { status: 503, ms: 2 }, ok(10)];
    expect(judgeReadiness(answers, probe)).toMatchObject({ failed: 3, longestFailedRun: 3, keptInService: false });
  });

  it('keeps nothing in service it never probed', () => {
    expect(judgeReadiness([], probe).keptInService).toBe(false);
  });

  it('probes a server on a connection of its own each time, and counts one that does not answer in time as failed', async () => {
    let connections = 0;
    const slow = createServer((req, res) => {
      if (req.url === '/readyz') res.end('ok');
      // Any other path never answers.
    }).on('connection', () => connections++);
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const answered = await collect(probeReadiness(url, { ...probe, timeoutSeconds: 1 }, 50), 300);
      expect(answered.length).toBeGreaterThanOrEqual(3);
      expect(answered.every((answer) => answer.status === 200)).toBe(true);
      expect(connections).toBe(answered.length);

      const hung = await collect(probeReadiness(url, { ...probe, path: '/hang', timeoutSeconds: 1 }, 50), 100);
      expect(hung).toHaveLength(1);
      expect(hung[0]!.status).toBe(0);
      expect(hung[0]!.ms).toBeGreaterThanOrEqual(1000);
      expect(hung[0]!.ms).toBeLessThan(1500);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});

async function collect<T>(stop: () => Promise<T>, afterMs: number): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  return stop();
}
