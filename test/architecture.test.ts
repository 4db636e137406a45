import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { APP_ROOT } from '../server/paths.ts';

const SOURCE_FOLDERS = ['server', 'client', 'shared', 'scripts'];

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

describe('the module structure', () => {
  it('sees the imports it checks', () => {
    const graph = importGraph();
    const app = graph.get(path.join(APP_ROOT, 'server/app.ts'));
    expect(app).toContain(path.join(APP_ROOT, 'server/pages/page-handler.ts'));
    expect(graph.get(path.join(APP_ROOT, 'server/discovery/seo.tsx'))).toContain(
      path.join(APP_ROOT, 'server/pages/page-request.ts'),
    );
  });

  it('has no import cycle between files, type-only imports included', () => {
    expect(cycles(importGraph())).toEqual([]);
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
