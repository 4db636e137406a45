import { spawnSync } from 'node:child_process';
import { startVarnish } from '../harness/edge-caches.ts';

/** What a load generator reports of one run; the bench's own runner supplies it. */
export interface Throughput {
  requestsPerSecond: number;
  p99Ms: number;
}

export type Load = (
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
  /** Which run this is, for the runner's messages: the target's name, and "direct" or "through Varnish". */
  what: string,
) => Promise<Throughput>;

export interface EdgeTarget {
  name: string;
  path: string;
  headers: Record<string, string>;
}

export interface EdgeRow {
  target: string;
  connections: number;
  /** Null when Varnish is not installed. */
  directRps: number | null;
  varnishRps: number | null;
  /** Requests per second through Varnish as a share of the server's own, in the same run. */
  ratio: number | null;
  varnishP99Ms: number | null;
}

export interface EdgeBenchOptions {
  rounds: number;
  seconds: number;
  connections: number[];
  load: Load;
}

export const varnishInstalled = () => !spawnSync('varnishd', ['-V'], { stdio: 'ignore' }).error;

/**
 * The shipped Varnish configuration (deploy/varnish/default.vcl) in front of the running server:
 * each target loaded directly and through Varnish, one after the other in every round, so that
 * both figures of a ratio come from the same moments of the machine. Medians over the rounds.
 */
export async function benchThroughVarnish(
  serverUrl: string,
  targets: EdgeTarget[],
  { rounds, seconds, connections, load }: EdgeBenchOptions,
): Promise<EdgeRow[]> {
  const notMeasured = () =>
    targets.flatMap((target) =>
      connections.map((c) => ({
        target: target.name,
        connections: c,
        directRps: null,
        varnishRps: null,
        ratio: null,
        varnishP99Ms: null,
      })),
    );
  if (!varnishInstalled()) return notMeasured();

  const origin = new URL(serverUrl);
  const varnish = await startVarnish({ host: origin.hostname, port: Number(origin.port) });
  try {
    const direct = new Map<string, Throughput[]>();
    const through = new Map<string, Throughput[]>();
    const add = (map: Map<string, Throughput[]>, key: string, result: Throughput) =>
      map.set(key, [...(map.get(key) ?? []), result]);
    for (let round = 1; round <= rounds; round++) {
      for (const c of connections) {
        for (const target of targets) {
          const key = `${target.name}|${c}`;
          add(direct, key, await load(serverUrl + target.path, c, seconds, target.headers, `${target.name} direct`));
          const viaVarnish = await load(
            varnish.url + target.path,
            c,
            seconds,
            target.headers,
            `${target.name} through Varnish`,
          );
          add(through, key, viaVarnish);
          process.stdout.write(
            `round ${round}/${rounds} c=${c} ${target.name} through Varnish: ${Math.round(viaVarnish.requestsPerSecond)} req/s\n`,
          );
        }
      }
    }
    return targets.flatMap((target) =>
      connections.map((c) => {
        const key = `${target.name}|${c}`;
        const directRps = median(direct.get(key)!.map((r) => r.requestsPerSecond));
        const varnishRps = median(through.get(key)!.map((r) => r.requestsPerSecond));
        return {
          target: target.name,
          connections: c,
          directRps: Math.round(directRps),
          varnishRps: Math.round(varnishRps),
          ratio: Math.round((varnishRps / directRps) * 100) / 100,
          varnishP99Ms: median(through.get(key)!.map((r) => r.p99Ms)),
        };
      }),
    );
  } finally {
    await varnish.stop();
  }
}

/** The rows as a table, saying so where Varnish is not installed. */
export function printEdgeRows(rows: EdgeRow[]): void {
  console.log('\nThrough Varnish (deploy/varnish/default.vcl), as a share of the server alone in the same run');
  console.table(
    rows.map((row) => ({
      target: row.target,
      conns: row.connections,
      'direct req/s': row.directRps ?? 'not measured',
      'Varnish req/s': row.varnishRps ?? 'not measured',
      '× direct': row.ratio ?? 'not measured (varnishd not installed)',
      'Varnish p99 ms': row.varnishP99Ms ?? 'not measured',
    })),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
