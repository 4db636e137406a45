import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  bytesPerResponse: number;
}

/** One load run by autocannon in its own process, so the generator never shares a core's event loop with the server. */
export function runLoad(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(connections), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.stderr.on('data', (chunk) => (err += String(chunk)));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}: ${err.trim()}`));
      const report = JSON.parse(out) as {
        requests: { average: number; total: number };
        latency: { p50: number; p99: number };
        throughput: { total: number };
        errors: number;
        timeouts: number;
        non2xx: number;
      };
      resolve({
        requestsPerSecond: report.requests.average,
        p50Ms: report.latency.p50,
        p99Ms: report.latency.p99,
        errors: report.errors + report.timeouts,
        non2xx: report.non2xx,
        bytesPerResponse: report.requests.total ? Math.round(report.throughput.total / report.requests.total) : 0,
      });
    });
  });
}
