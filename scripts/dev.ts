/**
 * `npm run dev`: the page on http://localhost:3000 (PORT overrides), rebuilt and reloaded on every
 * change. A change under client/ or shared/ rebuilds the browser bundle (esbuild, incrementally);
 * one under server/, client/ or shared/ rebuilds the server; any change there or to a locale file,
 * the content file, the live file or public/ restarts the server, and then every open tab reloads. Log lines are
 * printed readably; the error page shows the stack (NODE_ENV=development). While the check refuses
 * the editor's files or the build fails, every open tab lays the list of problems over its page and
 * a page loaded meanwhile is that list, until a change is accepted and they all reload.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, watch } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { checkEditorFiles } from '../server/content/editor-files.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, liveFileBeside, LOCALES_DIR } from '../server/config/paths.ts';
import {
  buildStarter,
  scriptBuildOptions,
  DIST,
  outputPaths,
  serverBuildOptions,
  stylesBuildOptions,
  writeClientManifest,
} from './build-steps.ts';
import { readableLines } from './dev/pretty-logs.ts';
import { buildReport, refusedReport, stoppedReport } from './dev/problems.ts';
import type { DevReport } from './dev/problems-view.ts';
import { startDevProxy } from './dev/proxy.ts';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? 'localhost';
const contentPath = process.env.CONTENT_PATH ? path.resolve(APP_ROOT, process.env.CONTENT_PATH) : DEFAULT_CONTENT_PATH;
const localesDir = process.env.LOCALES_PATH ? path.resolve(APP_ROOT, process.env.LOCALES_PATH) : LOCALES_DIR;
const livePath = process.env.LIVE_PATH ? path.resolve(APP_ROOT, process.env.LIVE_PATH) : liveFileBeside(contentPath);
const say = (text: string) => console.log(`\x1b[36m[dev]\x1b[0m ${text}`);

const { assets: ASSETS_OUT, server: SERVER_OUT } = outputPaths(DIST);

// The port first: a second `npm run dev` stops here, before it touches the first one's dist/.
const proxy = await startDevProxy(port, host).catch((error: Error) => {
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
});

rmSync(DIST, { recursive: true, force: true });
mkdirSync(ASSETS_OUT, { recursive: true });

const scriptBuild = await esbuild.context({
  ...scriptBuildOptions('development'),
  inject: [path.join(APP_ROOT, 'scripts/dev/live-reload.ts')],
});
const stylesBuild = await esbuild.context(stylesBuildOptions());
const serverBuild = await esbuild.context(serverBuildOptions());

async function buildClient(): Promise<void> {
  const built = await Promise.all([scriptBuild.rebuild(), stylesBuild.rebuild()]);
  const [scripts] = built;
  writeClientManifest(DIST, (await buildStarter(scripts.metafile)).text, ...built.map(({ metafile }) => metafile));
  // The server loads every file in assets/ at start: leave only this build's.
  const current = new Set(built.flatMap(({ metafile }) => Object.keys(metafile.outputs).map((f) => path.basename(f))));
  for (const name of readdirSync(ASSETS_OUT)) if (!current.has(name)) rmSync(path.join(ASSETS_OUT, name));
}

// ---- The server, as a child process on a port of its own behind the proxy.
let server: ChildProcess | null = null;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function stopServer(): Promise<void> {
  const running = server;
  server = null;
  if (!running || running.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    running.once('exit', () => resolve());
    running.kill('SIGTERM');
  });
}

async function startServer(): Promise<boolean> {
  const serverPort = await freePort();
  let lastError = 'the server stopped';
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_OUT], {
    cwd: APP_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(serverPort),
      // A free port unless told otherwise: the server's listening line names it.
      METRICS_PORT: process.env.METRICS_PORT ?? '0',
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? `http://localhost:${proxy.port}`,
      SHUTDOWN_TIMEOUT_MS: process.env.SHUTDOWN_TIMEOUT_MS ?? '1000',
    },
  });
  server = child;
  child.stdout.on(
    'data',
    readableLines((text) => process.stdout.write(text)),
  );
  child.stderr.on(
    'data',
    readableLines((text) => {
      if (text.trim()) lastError = text.trim();
      process.stderr.write(text);
    }),
  );
  const exited = new Promise<false>((resolve) => child.once('exit', () => resolve(false)));
  child.once('exit', (code) => {
    if (server !== child) return;
    // The server names the first problem of an editor's files; the page lists them all.
    proxy.down(editorProblems() ?? stoppedReport(lastError));
    say(`the server stopped (exit ${code}); waiting for a change`);
  });
  const ready = await Promise.race([untilReady(serverPort), exited]);
  if (ready) proxy.up(serverPort);
  return ready;
}

/** Every problem of the content file and the translations, or null when there are none. */
function editorProblems(): DevReport | null {
  const { problems } = checkEditorFiles({
    contentPath,
    contentShown: process.env.CONTENT_PATH ?? path.relative(APP_ROOT, contentPath),
    localesDir,
    localesShown: process.env.LOCALES_PATH ?? path.relative(APP_ROOT, localesDir),
    livePath,
    liveShown: process.env.LIVE_PATH ?? liveFileBeside(path.relative(APP_ROOT, contentPath)),
  });
  return problems.length > 0 ? refusedReport(problems) : null;
}

async function untilReady(serverPort: number): Promise<true> {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${serverPort}/readyz`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// ---- What a change sets off, one round at a time.
type Step = 'client' | 'server' | 'restart';
const STEPS_FOR: Record<string, Step[]> = {
  client: ['client', 'server', 'restart'],
  shared: ['client', 'server', 'restart'],
  server: ['server', 'restart'],
  locales: ['restart'],
  public: ['restart'],
  content: ['restart'],
};

/** The steps of a build that failed, done again with the next change's. */
let owed = new Set<Step>();

async function round(changedSteps: Set<Step>, first = false): Promise<void> {
  const started = performance.now();
  const steps = new Set([...owed, ...changedSteps]);
  owed = new Set();
  try {
    if (steps.has('client')) await buildClient();
    if (steps.has('server')) await serverBuild.rebuild();
  } catch (error) {
    owed = steps;
    // The last good server would go on serving what the files no longer say: the page lists the errors.
    await stopServer();
    proxy.down(buildReport(error));
    say(`the build failed (see above); http://${host}:${proxy.port} lists the errors until a change fixes them`);
    return;
  }
  proxy.restarting();
  await stopServer();
  if (!(await startServer())) return;
  // The server starts on a broken live file, refusing it: the editor is shown its problems all the same.
  const liveProblems = editorProblems();
  if (liveProblems) {
    await stopServer();
    proxy.down(liveProblems);
    say(`the live file is refused (see http://${host}:${proxy.port}); waiting for a change`);
    return;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  if (first) say(`ready on http://${host}:${proxy.port} in ${seconds} s; watching for changes`);
  else {
    say(`${[...steps].join(', ')} in ${seconds} s; reloading open pages`);
    proxy.reloadPages();
  }
}

let pending = new Set<Step>();
let busy = false;
let debounce: NodeJS.Timeout | undefined;

function changed(steps: Step[]): void {
  steps.forEach((step) => pending.add(step));
  clearTimeout(debounce);
  debounce = setTimeout(drain, 60);
}

async function drain(): Promise<void> {
  if (busy || pending.size === 0) return;
  const steps = pending;
  pending = new Set();
  busy = true;
  await round(steps);
  busy = false;
  void drain();
}

const ignored = (file: string | null) => !file || /(^|\/)\.|~$|\.swp$/.test(file); // editors' temporary files
// The locale files where LOCALES_PATH puts them, as the server reads them.
const folders = Object.entries(STEPS_FOR).map(
  ([folder, steps]) => [folder === 'locales' ? localesDir : path.join(APP_ROOT, folder), steps] as const,
);
for (const [folder, steps] of folders) {
  watch(folder, { recursive: true }, (_event, file) => ignored(file) || changed(steps));
}
// A content or live file kept elsewhere: its folder, for this one name (editors often save by renaming).
for (const editorFile of [contentPath, livePath]) {
  if (!folders.some(([folder]) => editorFile.startsWith(folder + path.sep))) {
    watch(path.dirname(editorFile), (_event, file) => file === path.basename(editorFile) && changed(['restart']));
  }
}

busy = true;
await round(new Set<Step>(['client', 'server', 'restart']), true);
busy = false;
void drain();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await Promise.all([
      stopServer(),
      proxy.close(),
      scriptBuild.dispose(),
      stylesBuild.dispose(),
      serverBuild.dispose(),
    ]);
    process.exit(0);
  });
}
