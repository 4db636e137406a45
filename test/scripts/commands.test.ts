import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../server/config/paths.ts';
import { appModuleOf } from '../../scripts/bench/weight.ts';
import { copyProject } from '../helpers/project-copy.ts';

/**
 * Every command the README and the guides in docs/ name runs somewhere it would fail: in CI
 * (.ci/run), or in a test. Those that only write into the checkout are the exceptions, each with
 * its reason; a command added to a guide without either fails here, so none can rot unseen.
 */
const NOT_RUN: Record<string, string> = {
  format: 'rewrites the checkout’s files (npm run lint, which npm test runs, checks the same rules)',
  images: 'redraws the sample pictures in public/ (the tests serve the committed ones)',
};

/** Commands a test runs, and the test: it names the script's file or runs the command through npm. */
const RUN_BY_TESTS: Record<string, string> = {
  dev: 'test/scripts/dev.test.ts',
  'check:content': 'test/content/schema.test.ts',
  'content:schema': 'test/scripts/commands.test.ts',
  start: 'test/scripts/commands.test.ts',
  serve: 'test/scripts/serve.test.ts',
};

const execFileAsync = promisify(execFile);
const read = (file: string) => readFileSync(path.join(APP_ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The npm commands in a text, by name: `npm ci`, `npm test`, `npm start`, `npm run <name>`. */
function npmCommands(text: string): Set<string> {
  return new Set([...text.matchAll(/\bnpm (?:run ([\w:-]+)|(ci|test|start)\b)/g)].map((m) => (m[1] ?? m[2])!));
}

/** What .ci/run runs, and what those scripts run in turn through `npm run`. */
function runInCi(): Set<string> {
  const lines = read('.ci/run')
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'));
  const names = [...npmCommands(lines.join('\n'))];
  for (const name of names) {
    for (const inner of npmCommands(scripts[name] ?? '')) if (!names.includes(inner)) names.push(inner);
  }
  return new Set(names);
}

/** Whether a test file runs the script: it names the file the script runs, or runs `npm <name>` / `npm run <name>`. */
function testRuns(testFile: string, name: string): boolean {
  const source = read(testFile);
  const entry = /^node (?:--\S+ \S+ )*(\S+\.[jt]s)$/.exec(scripts[name] ?? '')?.[1];
  if (entry && source.includes(`'${entry}'`)) return true;
  return [...source.matchAll(/\b(?:spawn|execFile\w*)\(\s*'npm',\s*\[([^\]]*)\]/g)].some(
    ([, args]) => args!.replaceAll(/\s/g, '') === (name === 'start' ? `'start'` : `'run','${name}'`),
  );
}

/** The README and every guide beside it. */
const GUIDES = [
  'README.md',
  ...readdirSync(path.join(APP_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

describe('the commands of the README and the guides', () => {
  const named = new Set(GUIDES.flatMap((file) => [...npmCommands(read(file))]));

  it('are read from the README and each guide', () => {
    expect(GUIDES).toEqual(expect.arrayContaining(['README.md', 'docs/operator.md', 'docs/contributing.md']));
    expect(npmCommands(read('README.md'))).toEqual(new Set(['ci', 'start', 'test']));
    expect(npmCommands(read('docs/speed.md')).has('bench')).toBe(true);
  });

  const inCi = runInCi();

  it('are all npm scripts of package.json (or npm ci)', () => {
    expect(named.size).toBeGreaterThan(8);
    expect([...named].filter((name) => name !== 'ci' && !(name in scripts))).toEqual([]);
  });

  it('each run in CI or by a test, but for the few that only write into the checkout', () => {
    const unchecked = [...named].filter(
      (name) => !inCi.has(name) && !(name in NOT_RUN) && !(RUN_BY_TESTS[name] && testRuns(RUN_BY_TESTS[name], name)),
    );
    expect(unchecked, 'run each in .ci/run or in a test (and list it in RUN_BY_TESTS)').toEqual([]);
  });

  it('lists no exception the README and the guides no longer name', () => {
    expect(Object.keys({ ...NOT_RUN, ...RUN_BY_TESTS }).filter((name) => !named.has(name))).toEqual([]);
  });

  it('include both benchmarks, which CI runs in their short smoke modes', () => {
    expect(read('.ci/run')).toMatch(/^step '[^']+' npm run bench -- --smoke$/m);
    expect(read('.ci/run')).toMatch(/^step '[^']+' npm run bench -- --crowd --smoke$/m);
    expect(read('.ci/run')).toMatch(/^step '[^']+' npm run bench:lighthouse -- --smoke$/m);
  });
});

describe('in a copy of the project', () => {
  let project: ReturnType<typeof copyProject>;
  beforeAll(() => {
    project = copyProject('commands-');
  });
  afterAll(() => project?.remove());

  it('npm run content:schema writes the content file’s and the live file’s schemas as committed', async () => {
    const schemas = ['content/event.schema.json', 'content/live.schema.json'];
    for (const schema of schemas) rmSync(path.join(project.dir, schema));
    const { stdout } = await execFileAsync('npm', ['run', 'content:schema'], {
      cwd: project.dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    for (const schema of schemas) {
      expect(stdout).toContain(`wrote ${schema}`);
      expect(readFileSync(path.join(project.dir, schema), 'utf8')).toBe(read(schema));
    }
  }, 60_000);

  describe('npm start', () => {
    let start: ChildProcess;
    let output = '';
    let origin: string;

    beforeAll(async () => {
      // Its own process group, so that npm, the shell it starts and the server all stop together.
      start = spawn('npm', ['start'], {
        cwd: project.dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      start.stdout!.on('data', (chunk) => (output += String(chunk)));
      start.stderr!.on('data', (chunk) => (output += String(chunk)));
      origin = await new Promise<string>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`npm start did not listen in time:\n${output}`)), 60_000);
        const poll = setInterval(() => {
          const port = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output)?.[1];
          if (port) {
            clearInterval(poll);
            clearTimeout(deadline);
            resolve(`http://127.0.0.1:${port}`);
          }
        }, 50);
        start.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
      });
    }, 90_000);

    afterAll(async () => {
      if (start?.pid && start.exitCode === null) {
        const exited = new Promise((resolve) => start.once('exit', resolve));
        process.kill(-start.pid, 'SIGTERM');
        await exited;
      }
    });

    it('builds into the project and serves the page, whose app module it serves too', async () => {
      expect(existsSync(path.join(project.dir, 'dist/server/index.js'))).toBe(true);
      expect(readdirSync(path.join(project.dir, 'dist/client/assets')).some((name) => name.endsWith('.js'))).toBe(true);
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(200);
      const module = await fetch(origin + appModuleOf(await page.text()));
      expect(module.status).toBe(200);
      expect(module.headers.get('content-type')).toMatch(/javascript/);
    });
  });
});
