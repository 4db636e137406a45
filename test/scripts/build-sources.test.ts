import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBuiltFromCurrentSources, writeBuildSources } from '../../scripts/build-sources.ts';

describe('a build and the sources it was made from', () => {
  let base: string;
  let built: string;
  beforeEach(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'build-sources-'));
    built = path.join(base, 'dist');
    mkdirSync(path.join(base, 'src'));
    mkdirSync(built);
    writeFileSync(
      path.join(base, 'src/main.ts'),
      "import { greeting } from './greeting.ts';\nconsole.log(greeting);\n",
    );
    writeFileSync(path.join(base, 'src/greeting.ts'), "export const greeting = 'hello';\n");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  async function build() {
    const { metafile } = await esbuild.build({
      absWorkingDir: base,
      entryPoints: ['src/main.ts'],
      bundle: true,
      write: false,
      metafile: true,
    });
    writeBuildSources(built, [metafile], base);
  }

  it('is current while every file esbuild read is as it was', async () => {
    await build();
    expect(isBuiltFromCurrentSources(built, base)).toBe(true);
  });

  it('is not once an imported file changes', async () => {
    await build();
    writeFileSync(path.join(base, 'src/greeting.ts'), "export const greeting = 'hallo';\n");
    expect(isBuiltFromCurrentSources(built, base)).toBe(false);
  });

  it('is not once a file it read is gone', async () => {
    await build();
    unlinkSync(path.join(base, 'src/greeting.ts'));
    expect(isBuiltFromCurrentSources(built, base)).toBe(false);
  });

  it('is not where no sources were written (a development build, or none)', () => {
    expect(isBuiltFromCurrentSources(built, base)).toBe(false);
    writeFileSync(path.join(built, 'build-sources.json'), 'not json');
    expect(isBuiltFromCurrentSources(built, base)).toBe(false);
  });
});
