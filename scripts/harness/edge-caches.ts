import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_ROOT } from '../../server/config/paths.ts';
import { freePort } from './free-port.ts';

/**
 * Varnish and nginx as an operator runs them, each as a child process on a free loopback port,
 * with the configuration shipped in deploy/ rewritten only for where the server listens, the
 * cache's own port and its run folder. A cache that cannot start throws: the suite fails.
 */

export type CacheName = 'varnish' | 'nginx';

export interface EdgeCache {
  name: CacheName;
  url: string;
  /** Everything the cache wrote to its log files and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface Origin {
  host: string;
  port: number;
}

export const VARNISH_VCL = path.join(APP_ROOT, 'deploy/varnish/default.vcl');
export const NGINX_CONF = path.join(APP_ROOT, 'deploy/nginx/landing.conf');

export function startCache(name: CacheName, origin: Origin): Promise<EdgeCache> {
  return name === 'varnish' ? startVarnish(origin) : startNginx(origin);
}

/** Replaces `from` in a shipped file, which must hold it: a renamed setting fails loudly. */
function rewrite(text: string, from: string, to: string, file: string): string {
  if (!text.includes(from))
    throw new Error(`${path.relative(APP_ROOT, file)} no longer contains ${JSON.stringify(from)}`);
  return text.replaceAll(from, to);
}

/** A run folder the cache's unprivileged processes can read (varnishd compiles the VCL as another user). */
function runFolder(name: CacheName): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `edge-${name}-`));
  chmodSync(dir, 0o755);
  return dir;
}

export async function startVarnish(origin: Origin): Promise<EdgeCache> {
  const dir = runFolder('varnish');
  let vcl = readFileSync(VARNISH_VCL, 'utf8');
  vcl = rewrite(vcl, '.host = "127.0.0.1";', `.host = "${origin.host}";`, VARNISH_VCL);
  vcl = rewrite(vcl, '.port = "3000";', `.port = "${origin.port}";`, VARNISH_VCL);
  const vclFile = path.join(dir, 'default.vcl');
  writeFileSync(vclFile, vcl, { mode: 0o644 });
  const port = await freePort();
  const workdir = path.join(dir, 'work');
  const child = spawn('varnishd', ['-F', '-a', `127.0.0.1:${port}`, '-f', vclFile, '-s', 'malloc,64m', '-n', workdir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return running('varnish', child, port, dir, () => '', workdir);
}

export async function startNginx(origin: Origin): Promise<EdgeCache> {
  const dir = runFolder('nginx');
  const port = await freePort();
  let conf = readFileSync(NGINX_CONF, 'utf8');
  conf = rewrite(conf, 'server 127.0.0.1:3000;', `server ${origin.host}:${origin.port};`, NGINX_CONF);
  conf = rewrite(conf, 'listen 8080;', `listen 127.0.0.1:${port};`, NGINX_CONF);
  conf = rewrite(conf, '/var/cache/nginx/landing', path.join(dir, 'cache'), NGINX_CONF);
  conf = rewrite(conf, '/var/log/nginx/landing-access.log', path.join(dir, 'access.log'), NGINX_CONF);
  writeFileSync(path.join(dir, 'landing.conf'), conf);
  mkdirSync(path.join(dir, 'cache'));
  mkdirSync(path.join(dir, 'temp'));
  // What Debian's nginx.conf holds around an included file, with every path in the run folder.
  const temp = (what: string) => `${what}_temp_path ${path.join(dir, 'temp', what)};`;
  const main = [
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    // Debian's nginx.conf compresses: a gzip filter at work must leave the server's ETags as they are.
    'gzip on;',
    `include ${path.join(dir, 'landing.conf')};`,
    '}',
  ].join('\n');
  writeFileSync(path.join(dir, 'nginx.conf'), main);
  const child = spawn(
    'nginx',
    ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logs = () =>
    ['error.log', 'access.log']
      .map((file) => {
        try {
          return readFileSync(path.join(dir, file), 'utf8');
        } catch {
          return '';
        }
      })
      .join('\n');
  return running('nginx', child, port, dir, logs);
}

/** Waits until the cache answers /healthz through to the server; stops it by its own pid. */
async function running(
  name: CacheName,
  child: ChildProcess,
  port: number,
  dir: string,
  logs: () => string,
  varnishWorkdir?: string,
): Promise<EdgeCache> {
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stderr += String(chunk)));
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  let startError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    // Not installed, or not runnable: there is no process to wait for.
    child.once('error', (error) => {
      startError = error;
      resolve();
    });
  });
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const output = () => `${stderr}\n${logs()}`;

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (gone) throw new Error(`${name} did not start: ${startError?.message ?? output().trim()}`);
    const ok = await fetch(`${url}/healthz`)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer /healthz within 20 s: ${output().trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    name,
    url,
    output: () => (varnishWorkdir ? `${output()}\n${varnishLog(varnishWorkdir)}` : output()),
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The request log varnishncsa writes with the shipped format, for what is in Varnish's memory log now. */
export function varnishLog(workdir: string): string {
  const format = path.join(APP_ROOT, 'deploy/varnish/varnishncsa.format');
  const result = spawnSync('varnishncsa', ['-n', workdir, '-d', '-f', format], { encoding: 'utf8', timeout: 15_000 });
  return result.stdout ?? '';
}
