import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject } from '../helpers/project-copy.ts';

/**
 * `npm run dev` in a copy of the project (its own dist/, sources the test may edit), driven as a
 * developer does: edit a component, edit the content file, see the page change and open tabs told
 * to reload.
 */
let project: string;
let removeProject = () => {};
let dev: ChildProcess;
let output = '';
let origin: string;
let reloads = 0;
const reloadStream = new AbortController();

function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = check();
      if (found) return resolve(found);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}; dev printed:\n${output}`));
      setTimeout(poll, 50);
    };
    poll();
  });
}

async function followReloads(): Promise<void> {
  const response = await fetch(`${origin}/__dev/reload`, { signal: reloadStream.signal });
  const reader = response.body!.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      reloads += (new TextDecoder().decode(value).match(/event: reload/g) ?? []).length;
    }
  })();
}

const page = async () => (await fetch(`${origin}/`)).text();

beforeAll(async () => {
  ({ dir: project, remove: removeProject } = copyProject('dev-loop-'));
  // The translations kept where an operator's LOCALES_PATH puts them, not in locales/.
  renameSync(path.join(project, 'locales'), path.join(project, 'site-locales'));
  dev = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    cwd: project,
    env: { PATH: process.env.PATH, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info', LOCALES_PATH: 'site-locales' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout!.on('data', (chunk) => (output += String(chunk)));
  dev.stderr!.on('data', (chunk) => (output += String(chunk)));
  origin = await waitFor('the dev server', () => /ready on (http:\/\/\S+) in/.exec(output)?.[1], 60_000);
  await followReloads();
}, 90_000);

afterAll(async () => {
  reloadStream.abort();
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    dev.kill('SIGTERM');
    await exited;
  }
  removeProject();
});

describe('npm run dev', () => {
  it('serves the page, with readable log lines rather than JSON', async () => {
    expect(await page()).toContain('Studio München');
    expect(output).toMatch(/INFO.*listening/);
    expect(output).not.toMatch(/^\{"level"/m);
  });

  it('a second one on the same port stops with one line and leaves the first serving', async () => {
    const second = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
        cwd: project,
        env: { PATH: process.env.PATH, PORT: new URL(origin).port },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      child.once('exit', (code) => resolve({ code, stderr }));
    });
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toMatch(/^Cannot start: listen EADDRINUSE[^\n]*$/);
    expect((await fetch(`${origin}/`)).status).toBe(200);
  }, 60_000);

  it('picks up a component change: the server renders it, the bundle holds it, open tabs reload', async () => {
    const footer = path.join(project, 'client/components/Footer.tsx');
    const before = reloads;
    writeFileSync(
      footer,
      readFileSync(footer, 'utf8').replace(
        '<footer className="footer">',
        '<footer className="footer" data-edited="yes">',
      ),
    );
    await waitFor('a reload', () => reloads > before);
    expect(await page()).toContain('data-edited="yes"');
    const bundle = readdirSync(path.join(project, 'dist/client/assets'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(path.join(project, 'dist/client/assets', name), 'utf8'))
      .join('');
    expect(bundle).toContain('data-edited');
    expect(bundle).toMatch(/new EventSource\(["']\/__dev\/reload["']\)/);
  }, 60_000);

  it('picks up a content change without a restart by hand', async () => {
    const content = path.join(project, 'content/event.json');
    const before = reloads;
    writeFileSync(content, readFileSync(content, 'utf8').replaceAll('Studio München', 'Studio Ismaning'));
    await waitFor('a reload', () => reloads > before);
    expect(await page()).toContain('Studio Ismaning');
  }, 60_000);

  it("lists every problem of the content file, and comes back once it's fixed", async () => {
    const content = path.join(project, 'content/event.json');
    const good = readFileSync(content, 'utf8');
    writeFileSync(
      content,
      good
        .replace('"startTime": "18:00"', '"startTime": "6pm"')
        .replace('"date": "2027-03-18"', '"date": "2027-02-30"'),
    );
    const lineOf = (text: string) => good.slice(0, good.indexOf(text)).split('\n').length;
    const dateProblem = `content/event.json:${lineOf('"date"')}: event.date "2027-02-30" is not a date in the calendar`;
    const timeProblem = `content/event.json:${lineOf('"startTime"')}: event.startTime "6pm" must be a time like 18:00`;
    // The server stops naming the first and how many more; the page lists them all.
    await waitFor('the reason', () => output.includes(`${dateProblem} (and 1 more problem;`));
    const answer = await fetch(`${origin}/`);
    expect(answer.status).toBe(503);
    expect(await answer.text()).toBe(`Development server: ${dateProblem}\n${timeProblem}\n`);
    const before = reloads;
    writeFileSync(content, good);
    await waitFor('a reload', () => reloads > before);
    expect((await fetch(`${origin}/`)).status).toBe(200);
  }, 60_000);

  it('reads and watches the translations where LOCALES_PATH puts them, and names them so', async () => {
    const english = path.join(project, 'site-locales/en/translation.json');
    const good = readFileSync(english, 'utf8');
    writeFileSync(english, good.replace('"product": "Horizon Live 2027"', '"product": ""'));
    const line = good.slice(0, good.indexOf('"product"')).split('\n').length;
    const problem = `site-locales/en/translation.json:${line}: product is empty: every text needs words`;
    await waitFor('the reason', () => output.includes(`Cannot start: ${problem}`));
    const answer = await fetch(`${origin}/`);
    expect(answer.status).toBe(503);
    expect(await answer.text()).toBe(`Development server: ${problem}\n`);
    const before = reloads;
    writeFileSync(english, good);
    await waitFor('a reload', () => reloads > before);
    expect((await fetch(`${origin}/`)).status).toBe(200);
  }, 60_000);
});
