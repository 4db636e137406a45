import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the build writes to the manifest. */
export interface ClientManifest {
  /** Public address of the app module: the hashed bundle that hydrates the page. */
  script: string;
  /** The starter every page carries as its one inline script: it imports the app after the first paint. */
  starter: string;
  /** The starter's Content-Security-Policy hash source, `sha256-<base64>`. */
  starterSha256: string;
  /** Public address of the hashed stylesheet. */
  stylesheet: string;
  /** The stylesheet's Content-Security-Policy hash source, `sha256-<base64>`. */
  stylesheetSha256: string;
}

/** An inline element's text, exactly as pages carry it, and the CSP source that allows it. */
export interface InlineText {
  text: string;
  hash: string;
}

/**
 * What the server puts in every page: the starter and the stylesheet, inline. The hashed files
 * themselves (the app module, the stylesheet for whoever asks) are served from the assets folder.
 */
export interface ClientAssets {
  inlineStyle: InlineText;
  inlineScript: InlineText;
}

export const ASSET_MANIFEST = 'manifest.json';

/** The CSP source (`sha256-<base64>`) that allows an inline `<style>` or `<script>` with exactly these bytes. */
export function inlineHash(bytes: Buffer | string): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

/**
 * Why this text cannot travel inside a `<style>` or `<script>` element, or undefined when it can.
 * The browser hashes the text its HTML parser hands the element, which ends at the first
 * `</style` (or `</script`, where `<!--` also changes how the parser reads on), has every CR
 * turned into LF and NUL into U+FFFD, and is read as UTF-8.
 */
export function cannotInline(bytes: Buffer, element: 'style' | 'script' = 'style'): string | undefined {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return 'it is not valid UTF-8';
  if (new RegExp(`</${element}`, 'i').test(text)) return `it contains "</${element}"`;
  if (element === 'script' && text.includes('<!--')) return 'it contains "<!--"';
  if (/[\r\0]/.test(text)) return 'it contains a carriage return or a NUL character';
  return undefined;
}

/** The manifest the build wrote into `buildDir`; without a complete one the server cannot serve pages. */
export function readClientManifest(buildDir: string): ClientManifest {
  const file = path.join(buildDir, ASSET_MANIFEST);
  let manifest: Partial<ClientManifest>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<ClientManifest>;
  } catch {
    throw new Error(`No client build at ${file}: run "npm run build" first`);
  }
  const { script, starter, starterSha256, stylesheet, stylesheetSha256 } = manifest;
  if (!script || !starter || !starterSha256 || !stylesheet || !stylesheetSha256) {
    throw new Error(`Client build manifest ${file} is incomplete`);
  }
  return { script, starter, starterSha256, stylesheet, stylesheetSha256 };
}

/**
 * Reads the manifest and the stylesheet it names; an inline text that is not the one the build
 * hashed would break every page under the Content-Security-Policy, so it stops the server at start.
 */
export function loadClientAssets(buildDir: string): ClientAssets {
  const { starter, starterSha256, stylesheet, stylesheetSha256 } = readClientManifest(buildDir);
  const stylesheetFile = path.join(buildDir, stylesheet);
  let css: Buffer;
  try {
    css = readFileSync(stylesheetFile);
  } catch {
    throw new Error(`The client build has no stylesheet ${stylesheetFile}: run "npm run build" again`);
  }
  return {
    inlineStyle: checkedInline(css, stylesheetSha256, 'style', `The stylesheet ${stylesheetFile}`),
    inlineScript: checkedInline(
      Buffer.from(starter),
      starterSha256,
      'script',
      `The starter in ${path.join(buildDir, ASSET_MANIFEST)}`,
    ),
  };
}

function checkedInline(bytes: Buffer, hash: string, element: 'style' | 'script', what: string): InlineText {
  if (inlineHash(bytes) !== hash) throw new Error(`${what} is not the one the build hashed: run "npm run build" again`);
  const problem = cannotInline(bytes, element);
  if (problem) throw new Error(`${what} cannot be inlined: ${problem}`);
  return { text: bytes.toString('utf8'), hash };
}
