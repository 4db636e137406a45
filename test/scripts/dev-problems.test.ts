import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { outputPaths } from '../../scripts/build-steps.ts';
import { buildReport, problemsPage, refusedReport, stoppedReport } from '../../scripts/dev/problems.ts';
import { checkEditorFiles } from '../../server/content/editor-files.ts';
import { formatFinding } from '../../server/content/findings.ts';

/** The list `npm run dev` shows while it serves no page (test/scripts/dev.test.ts runs the loop itself). */
const root = mkdtempSync(path.join(tmpdir(), 'dev-problems-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the dev loop's list of problems", () => {
  it("reads the check's lines back into file, line and message, with the line's text as the file has it", () => {
    writeFileSync(path.join(root, 'event.json'), '{\n  "event": {\n    "date": "2027-02-30"\n  }\n}\n');
    const lines = [
      formatFinding('event.json', { line: 3, message: 'event.date "2027-02-30" is not a date in the calendar' }),
      formatFinding('gone.json', { line: 7, message: 'product is empty: every text needs words' }),
      'content/event.json: cannot be read (ENOENT)',
    ];
    expect(refusedReport(lines, root)).toEqual({
      kind: 'refused',
      problems: [
        {
          file: 'event.json',
          line: 3,
          message: 'event.date "2027-02-30" is not a date in the calendar',
          source: '    "date": "2027-02-30"',
        },
        { file: 'gone.json', line: 7, message: 'product is empty: every text needs words' },
        { message: 'content/event.json: cannot be read (ENOENT)' },
      ],
    });
  });

  it('keeps every problem the check finds, each on its line', () => {
    const contentPath = path.join(root, 'two-problems.json');
    writeFileSync(contentPath, '{\n  "event": 1,\n  "studios": "none"\n}\n');
    const files = {
      contentPath,
      contentShown: 'two-problems.json',
      localesDir: root,
      localesShown: 'locales',
      livePath: path.join(root, 'live.json'),
      liveShown: 'live.json',
    };
    const { problems } = checkEditorFiles(files);
    const report = refusedReport(problems, root);
    expect(problems.length).toBeGreaterThan(1);
    expect(report.problems.map(({ file, line, message }) => `${file}:${line}: ${message}`)).toEqual(problems);
  });

  it("takes esbuild's errors with their place, and any other failure as its message", async () => {
    const failure = await esbuild
      .build({
        stdin: { contents: 'const a = 1;\n\tconst b = <;\n', sourcefile: 'x.ts' },
        write: false,
        logLevel: 'silent',
      })
      .catch((error: unknown) => error);
    const report = buildReport(failure);
    expect(report.kind).toBe('build');
    expect(report.problems[0]).toEqual({
      file: 'x.ts',
      line: 2,
      column: 11,
      message: expect.any(String),
      source: '\tconst b = <;',
    });
    expect(buildReport(new Error('no room left'))).toEqual({ kind: 'build', problems: [{ message: 'no room left' }] });
  });

  it("takes the server's last line without its colours", () => {
    expect(stoppedReport('\x1b[31mERROR\x1b[0m listen EACCES')).toEqual({
      kind: 'stopped',
      problems: [{ message: 'ERROR listen EACCES' }],
    });
  });

  it('writes every text of the page escaped, and nothing inline for the policy to refuse', () => {
    const html = problemsPage(
      {
        kind: 'build',
        problems: [
          {
            file: 'client/<b>.tsx',
            line: 2,
            column: 4,
            message: 'Unexpected "<script>alert(1)</script>" & more',
            source: "a = '<img src=x onerror=alert(1)>'",
          },
        ],
      },
      7,
    );
    expect(html).toContain('<code class="dev-problems-place">client/&lt;b&gt;.tsx:2</code>');
    expect(html).toContain(
      '<p class="dev-problems-message">Unexpected &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot; &amp; more</p>',
    );
    expect(html).toContain(
      '<pre class="dev-problems-source">2 │ a = &#39;&lt;img src=x onerror=alert(1)&gt;&#39;\n  │     ^</pre>',
    );
    expect(html).toContain('<h1 id="dev-problems-heading">The build failed</h1>');
    expect(html).toContain('<meta name="dev-report" content="7">');
    // Scripts and styles come from files only: the page's policy is script-src and style-src 'self'.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/__dev/live-reload.js" defer>']);
    const tags = html.match(/<[a-z][^>]*>/g)!;
    expect(tags.filter((tag) => /^<style|\sstyle=|\son\w+=/.test(tag))).toEqual([]);
    expect(html).toContain('<link rel="stylesheet" href="/__dev/problems.css">');
  });

  it('is not in the production build: its browser bundle names no /__dev/ path and opens no event stream', () => {
    const { assets } = outputPaths();
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const text = readFileSync(path.join(assets, name), 'utf8');
      expect(text).not.toContain('/__dev/');
      expect(text).not.toContain('EventSource');
    }
  });
});
