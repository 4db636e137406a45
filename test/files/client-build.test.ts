import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_BUILD_DIR } from '../../server/paths.ts';

const assetsDir = path.join(CLIENT_BUILD_DIR, 'assets');
const scripts = readdirSync(assetsDir).filter((file) => file.endsWith('.js'));

describe('the browser bundle', () => {
  it('is split into the tiny entry and the chunks it imports', () => {
    expect(scripts.filter((file) => /^client-[A-Z0-9]+\.js$/.test(file))).toHaveLength(1);
    expect(scripts.filter((file) => file.startsWith('chunk-')).length).toBeGreaterThan(0);
  });

  it('carries nothing of the development loop', () => {
    for (const file of scripts) expect(readFileSync(path.join(assetsDir, file), 'utf8')).not.toContain('__dev');
  });

  it.each(scripts)('%s opens with the hint that has V8 compile it while it downloads', (file) => {
    expect(readFileSync(path.join(assetsDir, file), 'utf8')).toMatch(/^\/\/# allFunctionsCalledOnLoad\n/);
  });
});
