import { get as httpGet } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podman, podmanOk, runContainer, type Container } from '../../scripts/harness/container.ts';
import { waitUntilServing } from '../../scripts/harness/server-process.ts';
import { HANG, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { waitForPictures } from '../../scripts/bench/page-pictures.ts';
import { freePort } from '../../scripts/harness/free-port.ts';
import { imageCommand } from '../../scripts/harness/dockerfile.ts';
import { runtimeNativePackages } from '../helpers/native-packages.ts';
import { PLANTED } from './build-context.ts';

/** /proc/1/status as a map of its fields. */
function processStatus(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => line.split(/:\s+/, 2) as [string, string]),
  );
}

describe('the image, built by Podman and run read-only', () => {
  let container: Container;
  let url: string;
  let metricsUrl: string;

  beforeAll(async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    container = await runContainer({ publish: { port, metricsPort } });
    url = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    await waitUntilServing(`${url}/healthz`);
  });
  afterAll(() => container?.remove());

  it('answers the pages, an unknown path with the 404 page, and the health endpoint', async () => {
    const landing = await fetch(`${url}/`);
    expect(landing.status).toBe(200);
    const html = await landing.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr">/);
    const appModule = /import\("(\/assets\/[^"]+)"\)/.exec(html)![1]!;
    expect((await fetch(url + appModule)).status).toBe(200);
    expect((await fetch(`${url}/impressum`)).status).toBe(200);
    const notFound = await fetch(`${url}/no/such/page`);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toContain('not-found');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/locales/en/translation.json`)).status).toBe(200);
    expect((await fetch(`${url}/images/studios/munich-480.jpg`)).status).toBe(200);
  });

  it("makes the hero's pictures in an encoder process of its own, which ends once idle", async () => {
    // The first page asked for starts making the pictures of the content file's slides.
    await waitForPictures(`${url}/`, { slides: 1, logo: false, timeoutMs: 20_000 });
    const html = await (await fetch(`${url}/`)).text();
    const picture = /\/images\/photos\/[A-Za-z0-9_-]{22}-l\d+\.webp/.exec(html)?.[0];
    expect(picture, 'the page names a made picture').toBeDefined();
    const served = await fetch(url + picture!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    // The encoder's command line, found among the container's processes (the pattern is split so
    // that the command looking for it does not find itself).
    const encoders = async () =>
      (
        await container.exec([
          'node',
          '-e',
          "const fs = require('fs'); const wanted = 'encoder-' + 'child.js'; console.log(fs.readdirSync('/proc').filter((pid) => /^\\d+$/.test(pid)).filter((pid) => { try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(wanted); } catch { return false; } }).length)",
        ])
      ).stdout.trim();
    await expect
      .poll(encoders, { timeout: 20_000, interval: 500, message: 'no encoder is left once it has been idle for 10 s' })
      .toBe('0');
    expect(await container.logs()).toContain('"msg":"photo made"');
  });

  it('serves the metrics on their own port only', async () => {
    const metrics = await fetch(`${metricsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_requests_total');
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
  });

  it('runs node itself as process 1, as user 1000, with no capabilities, on a root it cannot write', async () => {
    const commandLine = (await container.exec(['cat', '/proc/1/cmdline'])).stdout.split('\0');
    expect(commandLine.filter(Boolean)).toEqual(imageCommand());
    const status = processStatus((await container.exec(['cat', '/proc/1/status'])).stdout);
    expect(status.Uid!.split(/\s+/)).toEqual(['1000', '1000', '1000', '1000']);
    expect(status.Gid!.split(/\s+/)).toEqual(['1000', '1000', '1000', '1000']);
    for (const set of ['CapInh', 'CapPrm', 'CapEff', 'CapAmb']) expect(status[set], set).toMatch(/^0+$/);
    const write = await container.exec(['touch', '/app/written']);
    expect(write.code).not.toBe(0);
    expect(write.stderr).toContain('Read-only file system');
  });

  it('passes its health check, which asks the server', async () => {
    expect((await podman(['healthcheck', 'run', container.id])).code).toBe(0);
    // The same image with nothing listening: the check fails.
    const idle = await runContainer({ command: ['node', '-e', 'setTimeout(() => {}, 60_000)'] });
    try {
      expect((await podman(['healthcheck', 'run', idle.id])).code).not.toBe(0);
    } finally {
      await idle.remove();
    }
  });

  it('holds the production dependencies and the built server; no dev dependency, test, source, secret or unused map', async () => {
    const listed = await container.exec(['find', '/app', '-path', '/app/node_modules/*', '-prune', '-o', '-print']);
    const files = listed.stdout.trim().split('\n');
    expect(files).toContain('/app/dist/server/index.js');
    for (const unwanted of ['test', 'server', 'client', 'scripts', ...PLANTED]) {
      expect(files, unwanted).not.toContain(`/app/${unwanted}`);
    }
    const modules = (await container.exec(['ls', '/app/node_modules'])).stdout.split('\n');
    expect(modules).toContain('express');
    for (const dev of ['vitest', 'esbuild', 'typescript', 'playwright-core', 'lighthouse', 'tsx']) {
      expect(modules, dev).not.toContain(dev);
    }
    // A source map is used only where the file beside it names it: the server's, for stack traces,
    // and the app module's, for the browser's developer tools.
    const maps = files.filter((file) => file.endsWith('.map'));
    expect(maps).toContain('/app/dist/server/index.js.map');
    for (const map of maps) {
      const named = await container.exec([
        'grep',
        '-c',
        `sourceMappingURL=${map.split('/').at(-1)!}`,
        map.slice(0, -4),
      ]);
      expect(named.stdout.trim(), `${map} is named by the file beside it`).toBe('1');
    }
  });

  it('carries every native package a runtime dependency needs on this platform, and the image library loads them', async () => {
    for (const name of runtimeNativePackages()) {
      // Some are a shared library with nothing to require or resolve (libvips): found where Node
      // looks for packages is what they can be.
      const present = await container.exec([
        'node',
        '-e',
        "const [fs, path, name] = [require('fs'), require('path'), process.argv[1]]; process.exit(require.resolve.paths(name).some((dir) => fs.existsSync(path.join(dir, name, 'package.json'))) ? 0 : 1)",
        name,
      ]);
      expect(present.code, `${name}: ${present.stderr}`).toBe(0);
    }
    const encodes = await container.exec([
      'node',
      '-e',
      "require('sharp')({ create: { width: 2, height: 2, channels: 3, background: '#000' } }).webp().toBuffer().then((b) => process.exit(b.length > 0 ? 0 : 1))",
    ]);
    expect(encodes.code, encodes.stderr).toBe(0);
  });

  it('logs stack traces that name the TypeScript sources, from the map it carries', async () => {
    // Writing the page's bootstrap data fails, as a bug in it would: the render's error is logged.
    const failingBootstrap = `data:text/javascript,${encodeURIComponent(
      'const stringify = JSON.stringify; JSON.stringify = function (value, ...rest) { if (value && typeof value === "object" && "languageChosen" in value) throw new Error("bootstrap data cannot be written"); return stringify.call(this, value, ...rest); };',
    )}`;
    const [port, metricsPort] = [await freePort(), await freePort()];
    const failing = await runContainer({
      publish: { port, metricsPort },
      command: ['node', '--import', failingBootstrap, 'dist/server/index.js'],
    });
    try {
      await waitUntilServing(`http://127.0.0.1:${port}/healthz`);
      await fetch(`http://127.0.0.1:${port}/`);
      const logged = async () =>
        (await failing.logs())
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg?: string; err?: { stack?: string } })
          .find((entry) => entry.msg === 'page render failed');
      let failed = await logged();
      for (let waited = 0; !failed && waited < 5000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        failed = await logged();
      }
      const stack = failed?.err?.stack ?? '';
      expect(stack).toContain('bootstrap data cannot be written');
      expect(stack).toMatch(/\/shared\/bootstrap\.ts:\d+:\d+/);
      expect(stack).toMatch(/\/server\/pages\/document\.tsx:\d+:\d+/);
      expect(stack).not.toContain('dist/server/index.js');
    } finally {
      await failing.remove();
    }
  });
});

describe('the image stopped with SIGTERM while a request is in flight', () => {
  let fake: FakeSupabase;
  beforeAll(async () => {
    fake = await startFakeSupabase();
  });
  afterAll(() => fake?.close());

  it('cuts the request at SHUTDOWN_TIMEOUT_MS and ends a second after it at most, with exit code 1', async () => {
    const shutdownTimeoutMs = 1500;
    const port = await freePort();
    // On the host's network, to reach the fake backend on loopback; it never answers, so the
    // page request waits for it far longer than the shutdown allows.
    fake.reply.heroImages = HANG;
    fake.reply.logoList = HANG;
    const container = await runContainer({
      env: {
        PORT: String(port),
        METRICS_PORT: String(await freePort()),
        HOST: '127.0.0.1',
        SUPABASE_URL: fake.url,
        SUPABASE_ANON_KEY: fake.key,
        UPSTREAM_TIMEOUT_MS: '30000',
        SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
      },
    });
    try {
      await waitUntilServing(`http://127.0.0.1:${port}/healthz`);
      // The page waits for the backend, which the server has asked since its start. Its request is
      // being handled once one sent after it, on a connection opened after its own, is answered.
      const page = httpGet(`http://127.0.0.1:${port}/`);
      const inFlight = new Promise((resolve) => page.once('response', resolve).once('error', resolve));
      await new Promise((resolve) => page.once('socket', (socket) => socket.once('connect', resolve)));
      await fake.received('heroImages', 1);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

      expect((await podman(['kill', '--signal', 'TERM', container.id])).code).toBe(0);
      expect((await podman(['wait', container.id])).stdout.trim()).toBe('1');
      await inFlight;

      // Timed by the server's own log and the engine's record of the exit, not by podman's
      // commands, which take their own while on a busy machine.
      const logged = (await container.logs())
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; time: string });
      const timeOf = (message: string) => Date.parse(logged.find((entry) => entry.msg === message)?.time ?? '');
      const began = timeOf('shutting down');
      const cut = timeOf('shutdown timed out: closing the remaining connections');
      const exitedAt = Number(await podmanOk(['inspect', '--format', '{{.State.FinishedAt.UnixMilli}}', container.id]));
      // The request still in flight is cut at SHUTDOWN_TIMEOUT_MS, and the container is gone
      // within a second after that, as the operator's guide promises.
      expect(logged.map((entry) => entry.msg)).toContain('shutdown timed out: closing the remaining connections');
      expect(cut - began).toBeGreaterThanOrEqual(shutdownTimeoutMs - 50);
      expect(cut - began).toBeLessThan(shutdownTimeoutMs + 500);
      expect(exitedAt - began).toBeLessThan(shutdownTimeoutMs + 1000);
    } finally {
      await container.remove();
    }
  });
});
