import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShownReport } from '../../scripts/dev/problems-view.ts';
import { copyProject } from '../helpers/project-copy.ts';

/**
 * `npm run dev` in a copy of the project (its own dist/, sources the test may edit), driven as a
 * developer does: edit a component, edit the content file, see the page change and open tabs told
 * to reload, or shown what is wrong.
 */
let project: string;
let removeProject = () => {};
let dev: ChildProcess;
let output = '';
let origin: string;
const streams = new AbortController();

/** One event the dev loop sends a tab on /__dev/reload. */
interface DevEvent {
  event: string;
  data: string;
}

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

/** What a tab's live-reload script hears from now on, event by event. */
async function listen(): Promise<DevEvent[]> {
  const events: DevEvent[] = [];
  const response = await fetch(`${origin}/__dev/reload`, { signal: streams.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const fields = new Map(
          buffer
            .slice(0, end)
            .split('\n')
            .map((line) => /^(\w+): ?(.*)$/.exec(line))
            .filter((field) => field !== null)
            .map(([, name, value]) => [name!, value!]),
        );
        buffer = buffer.slice(end + 2);
        if (fields.has('event')) events.push({ event: fields.get('event')!, data: fields.get('data') ?? '' });
      }
    }
  })();
  return events;
}

/** The tab open since the dev loop started. */
let openTab: DevEvent[] = [];
const reloads = (tab = openTab) => tab.filter(({ event }) => event === 'reload').length;
/** The report of the first `problems` event from the `from`th on. */
const problemsIn = (tab: DevEvent[], from = 0) => {
  const found = tab.slice(from).find(({ event }) => event === 'problems');
  return found && (JSON.parse(found.data) as ShownReport);
};

const page = async () => (await fetch(`${origin}/`)).text();
/** What a browser's tab gets for the page: it asks for HTML. */
const pageInTab = (address = `${origin}/`) =>
  fetch(address, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

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
  openTab = await listen();
}, 90_000);

afterAll(async () => {
  streams.abort();
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
    const before = reloads();
    writeFileSync(
      footer,
      readFileSync(footer, 'utf8').replace(
        '<footer className="footer">',
        '<footer className="footer" data-edited="yes">',
      ),
    );
    await waitFor('a reload', () => reloads() > before);
    expect(await page(), `dev printed:\n${output}`).toContain('data-edited="yes"');
    const bundle = readdirSync(path.join(project, 'dist/client/assets'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(path.join(project, 'dist/client/assets', name), 'utf8'))
      .join('');
    expect(bundle).toContain('data-edited');
    expect(bundle).toMatch(/new EventSource\(["']\/__dev\/reload["']\)/);
  }, 60_000);

  it('picks up a content change without a restart by hand', async () => {
    const content = path.join(project, 'content/event.json');
    const before = reloads();
    writeFileSync(content, readFileSync(content, 'utf8').replaceAll('Studio München', 'Studio Ismaning'));
    await waitFor('a reload', () => reloads() > before);
    expect(await page()).toContain('Studio Ismaning');
  }, 60_000);

  it('shows every problem of a refused save in the open tab and in a tab loaded meanwhile, and reloads both once it is fixed', async () => {
    const content = path.join(project, 'content/event.json');
    const good = readFileSync(content, 'utf8');
    // A value that is markup: the page must show it as text.
    const badTime = '6pm <img src=x onerror=alert(1)>';
    const bad = good
      .replace('"startTime": "18:00"', `"startTime": "${badTime}"`)
      .replace('"date": "2027-03-18"', '"date": "2027-02-30"');
    const lineOf = (text: string) => good.slice(0, good.indexOf(text)).split('\n').length;
    const expected = [
      { line: lineOf('"date"'), message: 'event.date "2027-02-30" is not a date in the calendar' },
      { line: lineOf('"startTime"'), message: `event.startTime "${badTime}" must be a time like 18:00` },
    ].map((problem) => ({ file: 'content/event.json', ...problem, source: bad.split('\n')[problem.line - 1] }));
    const from = openTab.length;
    writeFileSync(content, bad);

    // The server stops naming the first and how many more; the open tab hears them all.
    const report = await waitFor('the problems in the open tab', () => problemsIn(openTab, from));
    expect(output).toContain(`content/event.json:${expected[0]!.line}: ${expected[0]!.message} (and 1 more problem;`);
    expect(report).toEqual({ id: expect.any(Number), kind: 'refused', problems: expected });

    // A tab loaded meanwhile gets a page listing them, with the script that reloads it.
    const answer = await pageInTab();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toMatch(/script-src 'self';.*style-src 'self';/);
    const html = await answer.text();
    expect(html).toContain('<h1 id="dev-problems-heading">The save was refused</h1>');
    expect(html).toContain('The last good version is not live');
    for (const { file, line, message, source } of expected) {
      expect(html).toContain(`<code class="dev-problems-place">${file}:${line}</code>`);
      expect(html).toContain(`<p class="dev-problems-message">${escaped(message)}</p>`);
      expect(html).toContain(`${line} │ ${escaped(source!)}`);
    }
    expect(html).not.toContain('<img');
    expect(html).toContain(`<meta name="dev-report" content="${report.id}">`);
    expect(html).toContain('<script src="/__dev/live-reload.js" defer></script>');
    const script = await fetch(`${origin}/__dev/live-reload.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toMatch(/new EventSource\(["']\/__dev\/reload["']\)/);
    expect((await fetch(`${origin}/__dev/problems.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    // What is not a page (a script, the API) gets the list as text.
    const api = await fetch(`${origin}/api/hero-slides`);
    expect(api.status).toBe(503);
    expect(await api.text()).toBe(
      `Development server: ${expected.map(({ file, line, message }) => `${file}:${line}: ${message}`).join('\n')}\n`,
    );
    // That tab's script connects and hears the report its page shows.
    const loadedTab = await listen();
    expect(await waitFor('the report in the tab loaded meanwhile', () => problemsIn(loadedTab))).toEqual(report);

    writeFileSync(content, good);
    await waitFor('both tabs told to reload', () => reloads(openTab.slice(from)) > 0 && reloads(loadedTab) > 0);
    expect((await pageInTab()).status).toBe(200);
    // A tab given the list whose script connects only after the fix hears that the server is up.
    const lateTab = await listen();
    await waitFor('the server up, in a tab that connected late', () => lateTab.some(({ event }) => event === 'up'));
    expect(problemsIn(lateTab)).toBeUndefined();
  }, 60_000);

  it('shows a failed build in the open tab and serves its errors, where it used to keep the old server', async () => {
    const footer = path.join(project, 'client/components/Footer.tsx');
    const good = readFileSync(footer, 'utf8');
    const bad = good.replace('<footer className="footer"', '<footer className="footer" <');
    const line = bad.slice(0, bad.indexOf('className="footer" <')).split('\n').length;
    const from = openTab.length;
    writeFileSync(footer, bad);
    const report = await waitFor('the build errors in the open tab', () => problemsIn(openTab, from));
    expect(report.kind).toBe('build');
    expect(report.problems[0]).toMatchObject({ file: 'client/components/Footer.tsx', line });
    const html = await (await pageInTab()).text();
    expect(html).toContain('<h1 id="dev-problems-heading">The build failed</h1>');
    expect(html).toContain(`<code class="dev-problems-place">client/components/Footer.tsx:${line}</code>`);
    writeFileSync(footer, good);
    await waitFor('a reload', () => reloads(openTab.slice(from)) > 0);
    expect(await page()).toContain('data-edited="yes"');
  }, 60_000);

  it('reads and watches the translations where LOCALES_PATH puts them, and names them so', async () => {
    const english = path.join(project, 'site-locales/en/translation.json');
    const good = readFileSync(english, 'utf8');
    const from = openTab.length;
    writeFileSync(english, good.replace('"product": "Horizon Live 2027"', '"product": ""'));
    const line = good.slice(0, good.indexOf('"product"')).split('\n').length;
    const problem = {
      file: 'site-locales/en/translation.json',
      line,
      message: 'product is empty: every text needs words',
    };
    await waitFor('the reason', () => output.includes(`Cannot start: ${problem.file}:${line}: ${problem.message}`));
    expect(await waitFor('the problem in the open tab', () => problemsIn(openTab, from))).toMatchObject({
      kind: 'refused',
      problems: [problem],
    });
    const answer = await pageInTab();
    expect(answer.status).toBe(503);
    const html = await answer.text();
    expect(html).toContain(`<code class="dev-problems-place">${problem.file}:${line}</code>`);
    expect(html).toContain(`<p class="dev-problems-message">${problem.message}</p>`);
    writeFileSync(english, good);
    await waitFor('a reload', () => reloads(openTab.slice(from)) > 0);
    expect((await pageInTab()).status).toBe(200);
  }, 60_000);

  it('shows a refused live file in the open tab, where the server itself would start without it', async () => {
    const live = path.join(project, 'content/live.json');
    const from = openTab.length;
    writeFileSync(live, '{\n  "notice": { "level": "info" },\n  "status": "EventDelayed"\n}\n');
    const report = await waitFor('the problems in the open tab', () => problemsIn(openTab, from));
    expect(report).toMatchObject({
      kind: 'refused',
      problems: [
        { file: 'content/live.json', line: 2, message: 'notice.text is missing' },
        { file: 'content/live.json', line: 3, message: expect.stringMatching(/^status "EventDelayed" must be one of/) },
      ],
    });
    expect((await pageInTab()).status).toBe(503);
    writeFileSync(live, '{ "notice": { "level": "info", "text": { "de": "Gleich geht es los" } } }\n');
    await waitFor('a reload', () => reloads(openTab.slice(from)) > 0);
    expect(await page()).toContain('Gleich geht es los');
  }, 60_000);
});
