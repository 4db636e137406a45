import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
/** wrk's threads: one per core of the two-core build machine. */
const WRK_THREADS = 2;

export interface LoadResult {
  /** Answers received in the run. */
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors: connect, read, write, timeout. */
  errors: number;
  /** Answers with an error status: 400 and above for wrk, anything but 2xx for autocannon. */
  non2xx: number;
  bytesPerResponse: number;
}

/**
 * What loads the targets. wrk (C, Debian package `wrk`) when it is on the PATH: a Node load
 * generator on the same cores saturates before the server does, which hides how the server
 * behaves at its limit (its memory above all). autocannon, in its own process, otherwise.
 */
export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  /** One line for the report: which generator, and how it runs. */
  description: string;
  run(url: string, connections: number, seconds: number, headers: Record<string, string>): Promise<LoadResult>;
}

/** wrk when installed (unless `prefer` says autocannon), else autocannon. */
export function chooseLoadGenerator(prefer?: string): LoadGenerator {
  const wrk = prefer === 'autocannon' ? null : onPath('wrk');
  if (prefer === 'wrk' && !wrk)
    throw new Error('wrk is not installed: apt-get install -y wrk, or leave out --generator');
  if (wrk) {
    return {
      name: 'wrk',
      description: `wrk (${wrk}), ${WRK_THREADS} threads`,
      run: (url, connections, seconds, headers) => runWrk(wrk, url, connections, seconds, headers),
    };
  }
  return {
    name: 'autocannon',
    description: 'autocannon in its own Node process (wrk is not installed: apt-get install -y wrk)',
    run: runAutocannon,
  };
}

function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

function runWrk(
  wrk: string,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
  extraArgs: string[] = [],
): Promise<LoadResult> {
  const args = ['-t', String(Math.min(WRK_THREADS, connections)), '-c', String(connections), '-d', `${seconds}s`];
  args.push('--latency', '--timeout', '5s', ...extraArgs);
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) =>
    execFile(wrk, args, (error, out, err) => {
      if (error) return reject(new Error(`wrk failed: ${err.trim() || error.message}`));
      resolve(parseWrk(out));
    }),
  );
}

/** One kind of request in a mix: a path on the loaded server and its headers. */
export interface MixedRequest {
  path: string;
  headers: Record<string, string>;
}

/**
 * wrk's Lua script for a mix: each connection's requests take the kinds in turn, so every kind
 * gets an equal share of the load.
 */
export function wrkMixScript(requests: MixedRequest[]): string {
  const lua = (text: string) => JSON.stringify(text); // a JSON string is a valid Lua string for these characters
  const formatted = requests.map(({ path: requestPath, headers }) => {
    const fields = Object.entries(headers).map(([name, value]) => `[${lua(name)}] = ${lua(value)}`);
    return `    wrk.format("GET", ${lua(requestPath)}, { ${fields.join(', ')} })`;
  });
  return [
    'local requests = {}',
    'local turn = 0',
    '-- Built in init, once wrk knows the host each request names.',
    'init = function(args)',
    `  requests = {\n${formatted.join(',\n')}\n  }`,
    'end',
    'request = function()',
    '  turn = turn % #requests + 1',
    '  return requests[turn]',
    'end',
    '',
  ].join('\n');
}

/** One wrk run of a mix of requests against the server at `baseUrl` (wrk only: a Node generator saturates first). */
export async function runWrkMix(
  baseUrl: string,
  requests: MixedRequest[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const wrk = onPath('wrk');
  if (!wrk) throw new Error('wrk is not installed: apt-get install -y wrk');
  const dir = mkdtempSync(path.join(tmpdir(), 'wrk-mix-'));
  const script = path.join(dir, 'mix.lua');
  writeFileSync(script, wrkMixScript(requests));
  try {
    return await runWrk(wrk, baseUrl, connections, seconds, {}, ['-s', script]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * wrk's text report: the answers, "Requests/sec", the --latency percentiles, socket errors, and
 * the answers with a status of 400 or more (wrk's "Non-2xx or 3xx responses").
 */
export function parseWrk(report: string): LoadResult {
  const number = (pattern: RegExp) => Number(pattern.exec(report)?.[1] ?? 0);
  const requests = number(/(\d+) requests in /);
  const read = /requests in [\d.]+\w+, ([\d.]+)([KMGT]?B) read/.exec(report);
  const bytesRead = read ? Number(read[1]) * 1024 ** ['B', 'KB', 'MB', 'GB', 'TB'].indexOf(read[2]!) : 0;
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return {
    requests,
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: latencyMs(/^\s+50%\s+([\d.]+)(us|ms|s)\s*$/m.exec(report)),
    p99Ms: latencyMs(/^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(report)),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    bytesPerResponse: requests ? Math.round(bytesRead / requests) : 0,
  };
}

/**
 * What is wrong with one run's answers, one phrase each (none when all is well): no answers at
 * all, or answers with another status than the target's (`status`; by default 2xx, which wrk can
 * only tell from 400 and above), or, unless `socketErrors` are allowed, socket errors.
 */
export function unexpectedAnswers(
  result: LoadResult,
  { status, socketErrors = false }: { status?: number; socketErrors?: boolean } = {},
): string[] {
  const problems: string[] = [];
  if (result.requests === 0) problems.push('no answers at all');
  if (status === undefined && result.non2xx > 0) {
    problems.push(`${result.non2xx} of ${result.requests} answers with an error status`);
  }
  if (status !== undefined && result.non2xx !== result.requests) {
    problems.push(`${result.requests - result.non2xx} of ${result.requests} answers not ${status}`);
  }
  if (!socketErrors && result.errors > 0) problems.push(`${result.errors} socket errors`);
  return problems;
}

function latencyMs(match: RegExpExecArray | null): number {
  if (!match) return 0;
  const factor = { us: 0.001, ms: 1, s: 1000 }[match[2] as 'us' | 'ms' | 's'];
  return Math.round(Number(match[1]) * factor * 100) / 100;
}

/** One load run by autocannon in its own process, so the generator never shares a core's event loop with the server. */
function runAutocannon(
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
        requests: report.requests.total,
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
