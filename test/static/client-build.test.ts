import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ASSET_MANIFEST,
  cannotInline,
  loadClientAssets,
  readClientManifest,
} from '../../server/static/client-assets.ts';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';

const assetsDir = path.join(CLIENT_BUILD_DIR, 'assets');
const scripts = readdirSync(assetsDir).filter((file) => file.endsWith('.js'));

const manifest = readClientManifest(CLIENT_BUILD_DIR);

describe('the browser bundle', () => {
  it('is the one hashed app module the manifest names', () => {
    expect(scripts).toEqual([path.basename(manifest.script)]);
    expect(manifest.script).toMatch(/^\/assets\/app-[A-Z0-9]+\.js$/);
  });

  it('carries nothing of the development loop', () => {
    for (const file of scripts) expect(readFileSync(path.join(assetsDir, file), 'utf8')).not.toContain('__dev');
  });

  it.each(scripts)('%s opens with the hint that has V8 compile it while it downloads', (file) => {
    expect(readFileSync(path.join(assetsDir, file), 'utf8')).toMatch(/^\/\/# allFunctionsCalledOnLoad\n/);
  });
});

describe('the starter the pages carry inline', () => {
  it('is in the manifest with the hash of its bytes, and imports the app module and nothing else', () => {
    expect(manifest.starterSha256).toBe(`sha256-${createHash('sha256').update(manifest.starter).digest('base64')}`);
    expect(cannotInline(Buffer.from(manifest.starter), 'script')).toBeUndefined();
    expect([...manifest.starter.matchAll(/import\((.*?)\)/g)].map((m) => m[1])).toEqual([
      JSON.stringify(manifest.script),
    ]);
    expect(manifest.starter).not.toContain('sourceMappingURL');
  });

  it('is a classic script: no import or export statement, its names kept inside a function of its own', () => {
    expect(() => new Function(manifest.starter)).not.toThrow();
    expect(manifest.starter).toMatch(/^\(\(\)=>\{.*\}\)\(\);\n?$/s);
  });

  it('stops the server at start when it is not the one the build hashed', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'client-build-'));
    try {
      mkdirSync(path.join(copy, 'assets'));
      writeFileSync(
        path.join(copy, manifest.stylesheet),
        readFileSync(path.join(CLIENT_BUILD_DIR, manifest.stylesheet)),
      );
      writeFileSync(path.join(copy, ASSET_MANIFEST), JSON.stringify({ ...manifest, starter: `${manifest.starter};` }));
      expect(() => loadClientAssets(copy)).toThrow(/The starter in .* is not the one the build hashed/);
      writeFileSync(path.join(copy, ASSET_MANIFEST), JSON.stringify(manifest));
      expect(loadClientAssets(copy).inlineScript).toEqual({ text: manifest.starter, hash: manifest.starterSha256 });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it.each([
    ['x="</script>"', 'it contains "</script"'],
    ['x="<!--"', 'it contains "<!--"'],
  ])('is refused when the HTML parser would end or change %j', (text, reason) => {
    expect(cannotInline(Buffer.from(text), 'script')).toBe(reason);
  });
});

describe('the stylesheet the pages carry inline', () => {
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
