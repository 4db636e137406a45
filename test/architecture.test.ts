import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { outputPaths } from '../scripts/build-steps.ts';
import { APP_ROOT } from '../server/config/paths.ts';

const SOURCE_FOLDERS = ['server', 'client', 'shared', 'scripts', 'test'];

/**
 * Which folder may import which: shared/ is the contract between the server and the browser, the
 * server renders the client's tree in one place, and the tools under scripts/ stand on their own.
 */
const BOUNDARIES: { from: string; to: string; except?: string[] }[] = [
  { from: 'shared', to: 'server' },
  { from: 'shared', to: 'client' },
  { from: 'shared', to: 'scripts' },
  { from: 'client', to: 'server' },
  { from: 'client', to: 'scripts' },
  { from: 'server', to: 'client', except: ['server/pages/render.tsx'] },
  { from: 'server', to: 'scripts' },
  { from: 'scripts', to: 'test' },
  { from: 'server', to: 'test' },
  { from: 'client', to: 'test' },
  { from: 'shared', to: 'test' },
];

/**
 * server/'s folders, top to bottom. A folder may import from the folders below it, never from one
 * above: the files directly in server/ (the process and the request pipeline) stand on them all.
 */
const SERVER_LAYERS = [
  '.', // index.ts: the process; app.ts: the request pipeline, in order
  'ops', // logs, metrics, health, shutdown, security headers, the HTTP listeners
  'pages', // the page route: language, page cache, rendering, the document and its head
  'discovery', // robots.txt, sitemap.xml, event.ics, the public addresses
  'api', // /api/hero-slides and /api/logo, and the cache headers they carry
  'static', // hashed client assets, the locale files, public/
  'hero', // where the hero's slides and logo come from: the content file or the backend
  'live', // the live state: the notice and status the event team changes without a restart
  'photos', // the pictures made of the hero's photos: fetched, encoded, kept on disk, served
  'backend', // the Supabase calls, their answers checked, the cache and its snapshot
  'content', // the content and locale files, read and checked, with file and line
  'http', // what every route shares: entity tags, content codings, the error handler, route labels
  'config', // the settings from the environment, and the project's folders
];

/** Every source module and the project modules it imports, type-only imports included. */
function importGraph(): Map<string, string[]> {
  const files = ts.sys
    .readDirectory(
      APP_ROOT,
      ['.ts', '.tsx'],
      undefined,
      SOURCE_FOLDERS.map((folder) => `${folder}/**/*`),
    )
    .map((file) => path.resolve(file));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const imports = importedFiles
        .filter(({ fileName }) => fileName.startsWith('.'))
        .map(({ fileName }) => path.resolve(path.dirname(file), fileName))
        .filter((target) => known.has(target));
      return [file, imports];
    }),
  );
}

/** Each cycle found by a depth-first walk, as the chain of files that closes it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const chain: string[] = [];
  const visit = (file: string) => {
    chain.push(file);
    for (const next of graph.get(file) ?? []) {
      const start = chain.indexOf(next);
      if (start >= 0) found.push([...chain.slice(start), next].map((f) => path.relative(APP_ROOT, f)));
      else if (!done.has(next)) visit(next);
    }
    chain.pop();
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return found;
}

const folderOf = (relative: string) => relative.split('/')[0]!;

/** Every import that crosses a boundary, as `importer -> imported`, paths relative to the project. */
function crossings(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    const from = path.relative(APP_ROOT, file);
    for (const target of imports) {
      const to = path.relative(APP_ROOT, target);
      const forbidden = BOUNDARIES.some(
        (rule) => rule.from === folderOf(from) && rule.to === folderOf(to) && !rule.except?.includes(from),
      );
      if (forbidden) found.push(`${from} -> ${to}`);
    }
  }
  return found;
}

/** The layer of a file under server/, or undefined outside server/; -1 for a folder the list does not name. */
function serverLayer(relative: string): number | undefined {
  const [top, ...rest] = relative.split('/');
  if (top !== 'server') return undefined;
  return SERVER_LAYERS.indexOf(rest.length > 1 ? rest[0]! : '.');
}

/** Every import under server/ that runs back up, as `importer -> imported (folder above)`. */
function upwardImports(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    const from = path.relative(APP_ROOT, file);
    const fromLayer = serverLayer(from);
    if (fromLayer === undefined) continue;
    for (const target of imports) {
      const to = path.relative(APP_ROOT, target);
      const toLayer = serverLayer(to);
      if (toLayer === undefined) continue;
      if (fromLayer < 0 || toLayer < 0) found.push(`${from} -> ${to} (a folder the layer list does not name)`);
      else if (toLayer < fromLayer) found.push(`${from} -> ${to} (a folder above)`);
    }
  }
  return found;
}

describe('the module structure', () => {
  it('sees the imports it checks', () => {
    const graph = importGraph();
    const app = graph.get(path.join(APP_ROOT, 'server/app.ts'));
    expect(graph.get(path.join(APP_ROOT, 'server/http/error-handler.ts'))).toContain(
      path.join(APP_ROOT, 'server/http/request-id.ts'),
    );
    expect(app).toContain(path.join(APP_ROOT, 'server/pages/page-handler.ts'));
    expect(graph.get(path.join(APP_ROOT, 'server/pages/seo-head.tsx'))).toContain(
      path.join(APP_ROOT, 'server/pages/page-request.ts'),
    );
  });

  it('has no import cycle between files, type-only imports included', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('keeps every folder within its boundaries, type-only imports included', () => {
    expect(crossings(importGraph())).toEqual([]);
  });

  it('names every folder of server/ in its layers, and no other', () => {
    const folders = readdirSync(path.join(APP_ROOT, 'server'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...folders].sort()).toEqual(SERVER_LAYERS.filter((layer) => layer !== '.').sort());
  });

  it('keeps each folder of server/ above the folders it imports, type-only imports included', () => {
    expect(upwardImports(importGraph())).toEqual([]);
  });

  it('finds an import that runs back up, and one from a folder the layers do not name', () => {
    const at = (file: string) => path.join(APP_ROOT, file);
    const graph = new Map([
      [at('server/app.ts'), [at('server/pages/page-handler.ts'), at('server/config/paths.ts')]],
      [at('server/pages/page-handler.ts'), [at('server/http/entity-tag.ts'), at('shared/routes.ts')]],
      [at('server/http/entity-tag.ts'), [at('server/pages/render.tsx')]],
      [at('server/config/paths.ts'), [at('server/app.ts')]],
      [at('server/elsewhere/x.ts'), [at('server/http/entity-tag.ts')]],
    ]);
    expect(upwardImports(graph)).toEqual([
      'server/http/entity-tag.ts -> server/pages/render.tsx (a folder above)',
      'server/config/paths.ts -> server/app.ts (a folder above)',
      'server/elsewhere/x.ts -> server/http/entity-tag.ts (a folder the layer list does not name)',
    ]);
  });

  it('finds a crossing when there is one', () => {
    const at = (file: string) => path.join(APP_ROOT, file);
    const graph = new Map([
      [at('client/a.tsx'), [at('shared/b.ts'), at('server/c.ts')]],
      [at('server/pages/render.tsx'), [at('client/App.tsx')]],
      [at('server/pages/other.tsx'), [at('client/App.tsx')]],
      [at('scripts/bench.ts'), [at('test/helpers/x.ts')]],
    ]);
    expect(crossings(graph)).toEqual([
      'client/a.tsx -> server/c.ts',
      'server/pages/other.tsx -> client/App.tsx',
      'scripts/bench.ts -> test/helpers/x.ts',
    ]);
  });

  it("builds a server that does not carry the browser's renderer", () => {
    const server = readFileSync(outputPaths().server, 'utf8');
    expect(server).toContain('react-dom/server');
    expect(server).not.toContain('react-dom/client');
  });

  it('builds a server that leaves sharp to the photo encoder, built beside it', () => {
    const { server } = outputPaths();
    expect(readFileSync(server, 'utf8')).not.toMatch(/from ["']sharp["']/);
    expect(readFileSync(path.join(path.dirname(server), 'encoder-child.js'), 'utf8')).toMatch(/from ["']sharp["']/);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
