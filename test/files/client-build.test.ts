import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ASSET_MANIFEST,
  cannotInline,
  loadClientAssets,
  type ClientManifest,
} from '../../server/files/client-assets.ts';
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

describe('the stylesheet the pages carry inline', () => {
  const manifest = JSON.parse(readFileSync(path.join(CLIENT_BUILD_DIR, ASSET_MANIFEST), 'utf8')) as ClientManifest;
  const css = readFileSync(path.join(CLIENT_BUILD_DIR, manifest.stylesheet));

  it('is in the manifest with the hash of its bytes, and names no source map a page could not resolve', () => {
    expect(manifest.stylesheetSha256).toBe(`sha256-${createHash('sha256').update(css).digest('base64')}`);
    expect(css.toString()).not.toContain('sourceMappingURL');
    expect(cannotInline(css)).toBeUndefined();
  });

  it('stops the server at start when the file is not the one the build hashed', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'client-build-'));
    try {
      mkdirSync(path.join(copy, 'assets'));
      writeFileSync(path.join(copy, ASSET_MANIFEST), JSON.stringify(manifest));
      writeFileSync(path.join(copy, manifest.stylesheet), Buffer.concat([css, Buffer.from('a{color:red}')]));
      expect(() => loadClientAssets(copy)).toThrow(/is not the one the build hashed: run "npm run build" again/);
      writeFileSync(path.join(copy, manifest.stylesheet), css);
      expect(loadClientAssets(copy).inlineStyle).toEqual({ text: css.toString(), hash: manifest.stylesheetSha256 });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it.each([
    ['a{}</style><script>', 'it contains "</style"'],
    ['a{}</STYLE >', 'it contains "</style"'],
    ['a{}\r\nb{}', 'it contains a carriage return or a NUL character'],
    ['a{content:"\0"}', 'it contains a carriage return or a NUL character'],
  ])('is refused when the HTML parser would not hand the browser %j unchanged', (text, reason) => {
    expect(cannotInline(Buffer.from(text))).toBe(reason);
  });

  it('is refused when it is not UTF-8', () => {
    expect(cannotInline(Buffer.from([0x61, 0x7b, 0xff, 0x7d]))).toBe('it is not valid UTF-8');
  });
});
