import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../../server/config/paths.ts';

const execFileAsync = promisify(execFile);

/** The name the image is built under here; nothing is pushed anywhere. */
export const IMAGE = 'localhost/event-landing:ci';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs podman with these arguments; a non-zero exit is a result, not an error. */
export async function podman(args: readonly string[], timeoutMs = 120_000): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await execFileAsync('podman', [...args], {
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  }
}

/** Like podman(), but a failure throws with podman's own message. */
export async function podmanOk(args: readonly string[], timeoutMs?: number): Promise<string> {
  const result = await podman(args, timeoutMs);
  if (result.code !== 0)
    throw new Error(`podman ${args.join(' ')} exited with ${result.code}: ${result.stderr.trim()}`);
  return result.stdout;
}

/** The host's CA bundle, which this machine's registry proxy is trusted through (see the build). */
const HOST_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/**
 * Builds the unchanged Dockerfile as an operator would with Podman, in Docker's image format (the
 * OCI format drops HEALTHCHECK), from local images only. The RUN steps borrow the host's npm cache
 * and, where the host has one, its CA bundle (a registry reached through a proxy the host trusts);
 * `-v` reaches RUN steps alone, so neither ends up in the image. Returns the seconds it took.
 */
export async function buildImage(context = APP_ROOT): Promise<number> {
  const mounts: string[] = ['-v', `${path.join(homedir(), '.npm')}:/root/.npm`];
  if (existsSync(HOST_CA_BUNDLE)) {
    const npmrc = path.join(tmpdir(), 'event-landing-build.npmrc');
    writeFileSync(npmrc, `cafile=${HOST_CA_BUNDLE}\n`);
    mounts.push('-v', `${HOST_CA_BUNDLE}:${HOST_CA_BUNDLE}:ro`, '-v', `${npmrc}:/usr/local/etc/npmrc:ro`);
  }
  mkdirSync(path.join(homedir(), '.npm'), { recursive: true });
  const started = performance.now();
  await podmanOk(['build', '--pull=never', '--format', 'docker', ...mounts, '-t', IMAGE, context], 900_000);
  return (performance.now() - started) / 1000;
}

export interface ContainerOptions {
  /** `-e` settings, on top of the image's own. */
  env?: Record<string, string>;
  /** Host ports for the container's 3000 and 9464 on loopback; without them, the host's network. */
  publish?: { port: number; metricsPort: number };
  /** A command in place of the image's CMD. */
  command?: string[];
}

export interface Container {
  id: string;
  /** podman exec in the running container. */
  exec(command: string[]): Promise<CommandResult>;
  /** What the container wrote to its stdout so far (the server's JSON log). */
  logs(): Promise<string>;
  remove(): Promise<void>;
}

/** Starts the image as the manifest runs it: read-only root, its own user, nothing added. */
export async function runContainer({ env = {}, publish, command = [] }: ContainerOptions = {}): Promise<Container> {
  const network = publish
    ? ['-p', `127.0.0.1:${publish.port}:3000`, '-p', `127.0.0.1:${publish.metricsPort}:9464`]
    : ['--network', 'host'];
  const settings = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
  const id = (await podmanOk(['run', '-d', '--read-only', ...network, ...settings, IMAGE, ...command])).trim();
  return {
    id,
    exec: (args) => podman(['exec', id, ...args]),
    logs: async () => (await podman(['logs', id])).stdout,
    remove: async () => void (await podman(['rm', '-f', '-t', '0', id])),
  };
}
