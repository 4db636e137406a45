import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import { dockerignore, replayDockerfile, type ReplayedImage } from '../../scripts/harness/dockerfile-replay.ts';
import { freePort } from '../../scripts/harness/free-port.ts';

/** The project's own Node 24 stands in for the one in the node:24 base image. */
const NODE_BIN_DIR = path.dirname(process.execPath);
/** The build machine's npm settings: take packages from the local cache where it has them. */
/** The build machine's own settings: its npm cache first, and the certificates its registry is reached with. */
const BUILD_ENV = {
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  ...Object.fromEntries(
    ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'npm_config_cafile', 'npm_config_registry', 'HTTPS_PROXY', 'https_proxy']
      .filter((name) => process.env[name])
      .map((name) => [name, process.env[name]!]),
  ),
};

const workDirs: string[] = [];
function freshFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  workDirs.push(dir);
  return dir;
}
// The replayed image holds a whole node_modules: on a busy machine removing it takes a while.
afterAll(() => Promise.all(workDirs.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 5 }))), 120_000);

/** USER as numbers: a name is looked up as `docker run` would in the image's /etc/passwd. */
function userIds(user: string): { uid: string; gid: string } {
  const [name, group] = user.split(':') as [string, string | undefined];
  const uid = /^\d+$/.test(name) ? name : execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim();
  const gid = group ?? (/^\d+$/.test(name) ? name : execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

/**
 * Runs a command of the image as its USER (when the tests run as root; otherwise as the
 * unprivileged user running them), in its WORKDIR, with its ENV plus `docker run -e` overrides.
 */
function runInImage(image: ReplayedImage, command: string[], env: Record<string, string>): ChildProcess {
  const { uid, gid } = userIds(image.user);
  const asUser =
    process.getuid?.() === 0 ? ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'] : [];
  const [program, ...args] = [...asUser, ...command] as [string, ...string[]];
  return spawn(program, args, {
    cwd: image.cwd,
    env: { ...image.env, PATH: `${NODE_BIN_DIR}:${image.env.PATH}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const exitOf = (child: ChildProcess) =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((resolve) => child.once('exit', resolve));

describe('the Dockerfile, replayed without a container engine', () => {
  let image: ReplayedImage;
  beforeAll(async () => {
    image = await replayDockerfile({
      context: APP_ROOT,
      dockerfile: path.join(APP_ROOT, 'Dockerfile'),
      workDir: freshFolder('dockerfile-replay-'),
      nodeBinDir: NODE_BIN_DIR,
      buildEnv: BUILD_ENV,
    });
  }, 240_000);

  it('runs node directly, in production, as a user that is not root', () => {
    expect(image.cmd[0]).toBe('node');
    expect(image.env.NODE_ENV).toBe('production');
    expect(userIds(image.user).uid).not.toBe('0');
    expect(image.exposed).toEqual([Number(image.env.PORT), Number(image.env.METRICS_PORT)]);
  });

  it('holds the production dependencies and the built server, and nothing of the tests, the build tools or secrets', () => {
    const inApp = (...parts: string[]) => existsSync(path.join(image.cwd, ...parts));
    expect(inApp('node_modules', 'express')).toBe(true);
    expect(inApp('dist', 'server', 'index.js')).toBe(true);
    for (const unwanted of [
      ['node_modules', 'vitest'],
      ['node_modules', 'esbuild'],
      ['node_modules', 'typescript'],
      ['test'],
      ['server'],
      ['.env'],
      ['.git'],
    ]) {
      expect(inApp(...unwanted), unwanted.join('/')).toBe(false);
    }
  });

  it('logs stack traces that name the TypeScript sources, from the map it carries', async () => {
    // Writing the page's bootstrap data fails, as a bug in it would: the render's error is logged.
    const failingBootstrap = `data:text/javascript,${encodeURIComponent(
      'const stringify = JSON.stringify; JSON.stringify = function (value, ...rest) { if (value && typeof value === "object" && "languageChosen" in value) throw new Error("bootstrap data cannot be written"); return stringify.call(this, value, ...rest); };',
    )}`;
    const [node, ...args] = image.cmd as [string, ...string[]];
    const port = String(await freePort());
    const server = runInImage(image, [node, '--import', failingBootstrap, ...args], {
      PORT: port,
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
    });
    const logs: Record<string, unknown>[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: server.stdout! }).on('line', (line) => {
          logs.push(JSON.parse(line) as Record<string, unknown>);
          if (logs.at(-1)!.msg === 'listening') resolve();
        });
        server.once('exit', (code) => reject(new Error(`the image's server exited with ${code}`)));
      });
      await fetch(`http://127.0.0.1:${port}/`);
      const logged = () => logs.find((entry) => entry.msg === 'page render failed');
      for (let waited = 0; !logged() && waited < 3000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      const failed = logged();
      const stack = (failed?.err as { stack?: string } | undefined)?.stack ?? '';
      expect(stack).toContain('bootstrap data cannot be written');
      expect(stack).toMatch(/\/shared\/bootstrap\.ts:\d+:\d+/);
      expect(stack).toMatch(/\/server\/pages\/document\.tsx:\d+:\d+/);
      expect(stack).not.toContain('dist/server/index.js');
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('starts as that user, serves /healthz and the page, passes its HEALTHCHECK and stops with 0 on SIGTERM', async () => {
    const port = String(await freePort());
    const env = { PORT: port, METRICS_PORT: '0', HOST: '127.0.0.1' };
    const server = runInImage(image, image.cmd, env);
    let stderr = '';
    server.stderr!.on('data', (chunk) => (stderr += String(chunk)));
    try {
      const listening = await new Promise<Record<string, unknown>>((resolve, reject) => {
        createInterface({ input: server.stdout! }).on('line', (line) => {
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (entry.msg === 'listening') resolve(entry);
        });
        server.once('exit', (code) => reject(new Error(`the image's server exited with ${code}: ${stderr}`)));
      });
      expect(listening.port).toBe(Number(port));

      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr">/);
      // The app module the inline starter imports.
      const script = /import\("(\/assets\/[^"]+)"\)/.exec(html)![1]!;
      expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/locales/en/translation.json`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/images/logo.svg`)).status).toBe(200);

      expect(image.healthcheck).not.toBeNull();
      expect(await exitOf(runInImage(image, image.healthcheck!, env))).toBe(0);

      server.kill('SIGTERM');
      expect(await exitOf(server)).toBe(0);
      // With the server gone the same check fails: it does ask the server.
      expect(await exitOf(runInImage(image, image.healthcheck!, env))).not.toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('the Dockerfile replay', () => {
  /** A build context holding these files, replayed with this Dockerfile. */
  function replay(dockerfile: string, files: Record<string, string> = {}) {
    const context = freshFolder('dockerfile-context-');
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(context, name)), { recursive: true });
      writeFileSync(path.join(context, name), text);
    }
    writeFileSync(path.join(context, 'Dockerfile'), dockerfile);
    return replayDockerfile({
      context,
      dockerfile: path.join(context, 'Dockerfile'),
      workDir: freshFolder('dockerfile-replay-'),
      nodeBinDir: NODE_BIN_DIR,
    });
  }
  const FROM = 'FROM node:24-bookworm-slim AS base\nWORKDIR /app\n';

  it('copies as Docker does: folder contents, files into folders, across stages, leaving out what .dockerignore names', async () => {
    const image = await replay(
      `${FROM}COPY a.txt b.txt ./files/\nCOPY src ./code\nRUN node -e "require('fs').writeFileSync('made.txt', process.version)"\n` +
        `FROM node:24-bookworm-slim\nENV A=1 B="two words"\nWORKDIR /srv\nCOPY --from=base /app/made.txt /app/code ./\nUSER 1000\nCMD ["node", "x.js"]\n`,
      {
        'a.txt': 'a',
        'b.txt': 'b',
        'src/x.js': 'x',
        'src/secret.env': 's',
        'src/deep/y.js': 'y',
        '.dockerignore': '**/*.env\n',
      },
    );
    const read = (file: string) => readFileSync(path.join(image.cwd, file), 'utf8');
    expect(read('made.txt')).toBe(process.version);
    expect(read('x.js')).toBe('x');
    expect(read('deep/y.js')).toBe('y');
    expect(existsSync(path.join(image.cwd, 'secret.env'))).toBe(false);
    expect(existsSync(path.join(image.root, 'app', 'files'))).toBe(false);
    expect(image).toMatchObject({
      env: { A: '1', B: 'two words' },
      workdir: '/srv',
      user: '1000',
      cmd: ['node', 'x.js'],
    });
  });

  it('fails on a COPY of a file that is not there', async () => {
    await expect(replay(`${FROM}COPY missing.txt ./\n`)).rejects.toThrow(/line 3: COPY missing\.txt: not found/);
  });

  it('fails on a COPY of a file .dockerignore leaves out', async () => {
    await expect(replay(`${FROM}COPY .env ./\n`, { '.env': 'KEY=1', '.dockerignore': '.env\n' })).rejects.toThrow(
      /excluded by \.dockerignore/,
    );
  });

  it('fails on a RUN step that fails', async () => {
    await expect(replay(`${FROM}RUN node -e "process.exit(3)"\n`)).rejects.toThrow(/exited with 3/);
  });

  it('fails on what it cannot replay rather than skipping it', async () => {
    await expect(replay('FROM python:3\n')).rejects.toThrow(/only node:24 images/);
    await expect(replay(`${FROM}ADD https://example.com/x ./\n`)).rejects.toThrow(/ADD is not replayed/);
    await expect(replay(`${FROM}CMD node x.js\n`)).rejects.toThrow(/exec-form/);
  });

  it('reads .dockerignore as Docker does', () => {
    const context = freshFolder('dockerfile-context-');
    writeFileSync(
      path.join(context, '.dockerignore'),
      'node_modules\n*.log\n/dist/\n**/*.pem\ndocs/*\n!docs/keep.md\n',
    );
    const ignored = dockerignore(context);
    for (const file of ['node_modules', 'node_modules/a/b.js', 'x.log', 'dist/a.js', 'a/b/c.pem', 'docs/a.md'])
      expect(ignored(file), file).toBe(true);
    for (const file of ['server/x.ts', 'logs/x.txt', 'a/x.log', 'docs/keep.md', 'node_modules2'])
      expect(ignored(file), file).toBe(false);
  });
});
