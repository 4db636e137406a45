/**
 * The dev loop's reports of why it serves no page, from the content check's lines, esbuild's
 * errors or the server's last words; and the page that lists them (development only: the proxy
 * of `npm run dev` is the one thing that serves it).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Message } from 'esbuild';
import { APP_ROOT } from '../../server/config/paths.ts';
import {
  DEV_STYLES_PATH,
  escapeHtml,
  problemLine,
  problemsView,
  toHtml,
  type DevProblem,
  type DevReport,
} from './problems-view.ts';

/** Where the page finds the live-reload script, served by the proxy as is the view's stylesheet. */
export const DEV_SCRIPT_PATH = '/__dev/live-reload.js';

const MAX_SOURCE = 240;

/**
 * The check's lines (`content/event.json:12: event.date "2027-02-30" is not a date in the
 * calendar`, as `formatFinding` writes them), each with the text of its line, read from the file
 * as it is now. `root` is what the file names are relative to.
 */
export function refusedReport(lines: readonly string[], root = APP_ROOT): DevReport {
  const files = new Map<string, string[] | null>();
  const linesOf = (file: string) => {
    if (!files.has(file)) {
      try {
        files.set(file, readFileSync(path.resolve(root, file), 'utf8').split(/\r?\n/));
      } catch {
        files.set(file, null);
      }
    }
    return files.get(file);
  };
  const problems = lines.map((text): DevProblem => {
    const found = /^(.+?):(\d+): ([\s\S]*)$/.exec(text);
    if (!found) return { message: text };
    const [, file, number, message] = found as unknown as [string, string, string, string];
    const line = Number(number);
    const source = linesOf(file)?.[line - 1];
    return { file, line, message, ...(source === undefined ? {} : { source: clip(source) }) };
  });
  return { kind: 'refused', problems };
}

/** esbuild's errors, each where it found it; any other failure of the build as its message. */
export function buildReport(error: unknown): DevReport {
  const errors = (error as { errors?: Message[] } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0)
    return { kind: 'build', problems: [{ message: error instanceof Error ? error.message : String(error) }] };
  return {
    kind: 'build',
    problems: errors.map(({ text, location }): DevProblem => {
      if (!location) return { message: text };
      const { file, line, column, lineText } = location;
      return { file, line, column, message: text, source: clip(lineText) };
    }),
  };
}

/** The server's last line on stderr, its colours taken out. */
export function stoppedReport(lastError: string): DevReport {
  // eslint-disable-next-line no-control-regex
  return { kind: 'stopped', problems: [{ message: lastError.replace(/\x1b\[[0-9;]*m/g, '') }] };
}

const clip = (text: string) => (text.length > MAX_SOURCE ? `${text.slice(0, MAX_SOURCE - 1)}…` : text);

/** For a request that is not a page's (a script, an API call): the problems, one per line. */
export const problemsText = (report: DevReport): string =>
  `Development server: ${report.problems.map(problemLine).join('\n')}\n`;

/**
 * The page a tab loaded meanwhile gets: the list, and the live-reload script, which reloads it
 * once a save is accepted (`reportId` tells it which report it shows). No inline script or style:
 * both come from the proxy, as the policy sent with it allows.
 */
export function problemsPage(report: DevReport, reportId: number): string {
  const title = `${report.kind === 'build' ? 'Build failed' : report.kind === 'refused' ? 'Save refused' : 'Server stopped'} · npm run dev`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="dev-report" content="${reportId}">`,
    `<title>${escapeHtml(title)}</title>`,
    `<link rel="stylesheet" href="${DEV_STYLES_PATH}">`,
    `<script src="${DEV_SCRIPT_PATH}" defer></script>`,
    '</head>',
    `<body class="dev-problems-page">${toHtml(problemsView(report, 'page'))}</body>`,
    '</html>',
    '',
  ].join('\n');
}

/** The policy of that page: scripts, styles and the event stream from the proxy alone. */
export const PROBLEMS_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
