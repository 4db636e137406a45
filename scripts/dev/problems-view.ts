/**
 * What the dev loop shows while it serves no page: every problem of a refused save or a failed
 * build, as one view that the proxy writes as an HTML page and the live-reload script builds as an
 * overlay in an open tab. Imports nothing, as it runs in both.
 */

/** The view's stylesheet, served by the proxy (scripts/dev/problems.css). */
export const DEV_STYLES_PATH = '/__dev/problems.css';

/** One problem, where it is (when it is in a file) and what is wrong, in the check's own words. */
export interface DevProblem {
  /** As the developer names it: relative to the project, or as CONTENT_PATH / LOCALES_PATH say. */
  file?: string;
  line?: number;
  /** Where on the line, from 0 (esbuild's errors have it, the content check's do not). */
  column?: number;
  message: string;
  /** The text of that line, as the file has it now. */
  source?: string;
}

/** Why no page is served: the check refused the editor's files, the build failed, or the server stopped. */
export type DevReportKind = 'refused' | 'build' | 'stopped';

export interface DevReport {
  kind: DevReportKind;
  problems: DevProblem[];
}

/** A report as the proxy hands it out: `id` tells a tab whether it shows this one already. */
export interface ShownReport extends DevReport {
  id: number;
}

export interface ViewNode {
  tag: string;
  attrs: Record<string, string>;
  children: (ViewNode | string)[];
}

const h = (tag: string, attrs: Record<string, string>, ...children: (ViewNode | string | null)[]): ViewNode => ({
  tag,
  attrs,
  children: children.filter((child): child is ViewNode | string => child !== null),
});

const HEADINGS: Record<DevReportKind, string> = {
  refused: 'The save was refused',
  build: 'The build failed',
  stopped: 'The server stopped',
};

const CAUSES: Record<DevReportKind, string> = {
  refused: 'The check refused the content file or the translations',
  build: 'esbuild could not build the code',
  stopped: 'The server stopped; the last it printed',
};

/** `content/event.json:12` */
export const placeOf = (problem: DevProblem): string | null =>
  problem.file ? (problem.line ? `${problem.file}:${problem.line}` : problem.file) : null;

/** The problem as one line, as `npm run check:content` and the terminal print it. */
export const problemLine = (problem: DevProblem): string => {
  const place = placeOf(problem);
  return place ? `${place}: ${problem.message}` : problem.message;
};

/**
 * `where` is the tab it is shown in: an open tab keeps the last good page under the overlay; a
 * tab (re)loaded meanwhile has nothing else.
 */
export function problemsView(report: DevReport, where: 'overlay' | 'page'): ViewNode {
  const count = report.problems.length;
  const notLive =
    where === 'overlay'
      ? 'The page under this is the last good version. It is not live: nothing is served until a save fixes this.'
      : 'The last good version is not live: nothing is served until a save fixes this.';
  const overlay = { role: 'alertdialog', 'aria-modal': 'true', tabindex: '-1' };
  return h(
    where === 'overlay' ? 'section' : 'main',
    {
      class: 'dev-problems',
      lang: 'en',
      'aria-labelledby': 'dev-problems-heading',
      ...(where === 'overlay' ? overlay : {}),
    },
    h('p', { class: 'dev-problems-from' }, 'npm run dev'),
    h('h1', { id: 'dev-problems-heading' }, HEADINGS[report.kind]),
    h('p', { class: 'dev-problems-lead' }, notLive),
    h('p', {}, `${CAUSES[report.kind]}: ${count === 1 ? '1 problem' : `${count} problems`}.`),
    h(
      'ol',
      { class: 'dev-problems-list' },
      ...report.problems.map((problem) => {
        const place = placeOf(problem);
        return h(
          'li',
          {},
          place === null ? null : h('code', { class: 'dev-problems-place' }, place),
          h('p', { class: 'dev-problems-message' }, problem.message),
          problem.source === undefined ? null : h('pre', { class: 'dev-problems-source' }, sourceExcerpt(problem)),
        );
      }),
    ),
    h(
      'p',
      { class: 'dev-problems-next' },
      `Fix ${count === 1 ? 'it' : 'them'} and save: this tab reloads itself once the save is accepted.`,
    ),
  );
}

/** ` 12 │   "date": "2027-02-30",` with, where the column is known, a caret under it. */
function sourceExcerpt({ line, column, source = '' }: DevProblem): string {
  if (line === undefined) return source;
  const number = String(line);
  // Under the column, with the line's own tabs so that it lines up however wide a tab is drawn.
  const indent = source.slice(0, column).replace(/[^\t]/g, ' ');
  const caret = column === undefined ? '' : `\n${' '.repeat(number.length)} │ ${indent}^`;
  return `${number} │ ${source}${caret}`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** The view as HTML: every text and attribute value escaped; tag and attribute names are the view's own. */
export function toHtml(node: ViewNode | string): string {
  if (typeof node === 'string') return escapeHtml(node);
  const attrs = Object.entries(node.attrs)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<${node.tag}${attrs}>${node.children.map(toHtml).join('')}</${node.tag}>`;
}
