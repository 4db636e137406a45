/**
 * Development only: injected into the bundle by `npm run dev`, and the script of the page the dev
 * loop serves while it has problems to show. It reloads the tab once the dev loop has rebuilt and
 * restarted the server; while a save is refused (or the build fails) it lays the list of problems
 * over the page. Same origin, as are the view's stylesheet and the event stream, so the page's
 * policy ('self') allows all three; the overlay has no inline style or script.
 */
import { DEV_STYLES_PATH, problemsView, type ShownReport, type ViewNode } from './problems-view.ts';

const HOST_ID = 'dev-problems-overlay';

/** The report this tab shows: the one its page was served with, or the last laid over it. */
const served = document.querySelector<HTMLMetaElement>('meta[name="dev-report"]');
let shown: number | null = served ? Number(served.content) : null;

const changes = new EventSource('/__dev/reload');
changes.addEventListener('reload', () => location.reload());
// The server is up: a tab showing problems missed the reload (it came while the tab connected).
changes.addEventListener('up', () => shown !== null && location.reload());
changes.addEventListener('problems', (event) => {
  const report = JSON.parse((event as MessageEvent<string>).data) as ShownReport;
  if (report.id !== shown) showProblems(report);
});

function showProblems(report: ShownReport): void {
  shown = report.id;
  document.getElementById(HOST_ID)?.remove();
  const host = document.createElement('div');
  host.id = HOST_ID;
  // A shadow root: the page's styles do not reach the list, nor the list's the page.
  const root = host.attachShadow({ mode: 'open' });
  const styles = document.createElement('link');
  styles.rel = 'stylesheet';
  styles.href = DEV_STYLES_PATH;
  const view = build(problemsView(report, 'overlay')) as HTMLElement;
  view.hidden = true; // until its stylesheet applies
  const reveal = () => {
    view.hidden = false;
    view.focus();
  };
  styles.addEventListener('load', reveal);
  styles.addEventListener('error', reveal);
  root.append(styles, view);
  document.body.append(host);
}

/** The view as elements; text goes in as text, never as markup. */
function build(node: ViewNode | string): Node {
  if (typeof node === 'string') return document.createTextNode(node);
  const element = document.createElement(node.tag);
  for (const [name, value] of Object.entries(node.attrs)) element.setAttribute(name, value);
  element.append(...node.children.map(build));
  return element;
}
