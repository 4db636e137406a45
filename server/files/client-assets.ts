import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the build writes to the manifest. */
export interface ClientManifest {
  /** Public address of the browser entry. */
  script: string;
  /** Public address of the hashed stylesheet. */
  stylesheet: string;
  /** The stylesheet's Content-Security-Policy hash source, `sha256-<base64>`. */
  stylesheetSha256: string;
}

/** The hashed browser bundle, and the stylesheet every page carries inline. */
export interface ClientAssets {
  script: string;
  /** The stylesheet's address: pages do not link it, the file is served for whoever asks. */
  stylesheet: string;
  /** The stylesheet's text, exactly as pages carry it in their `<style>` element, and its hash source. */
  inlineStyle: { text: string; hash: string };
}

export const ASSET_MANIFEST = 'manifest.json';

/** The CSP source (`sha256-<base64>`) that allows a `<style>` element with exactly these bytes. */
export function inlineStyleHash(bytes: Buffer): string {
  return `sha256-${createHash('sha256').update(bytes).digest('base64')}`;
}

/**
 * Why this stylesheet cannot travel inside a `<style>` element, or undefined when it can. The
 * browser hashes the text its HTML parser hands the element, which ends at the first `</style`,
 * has every CR turned into LF and NUL into U+FFFD, and is read as UTF-8.
 */
export function cannotInline(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return 'it is not valid UTF-8';
  if (/<\/style/i.test(text)) return 'it contains "</style"';
  if (/[\r\0]/.test(text)) return 'it contains a carriage return or a NUL character';
  return undefined;
}

/**
 * Reads the manifest the build writes and the stylesheet it names; without a build the server
 * cannot serve pages, and a stylesheet that is not the one the build hashed would break every page
 * under the Content-Security-Policy, so either stops the server at start.
 */
export function loadClientAssets(buildDir: string): ClientAssets {
  const file = path.join(buildDir, ASSET_MANIFEST);
  let manifest: Partial<ClientManifest>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<ClientManifest>;
  } catch {
    throw new Error(`No client build at ${file}: run "npm run build" first`);
  }
  if (!manifest.script || !manifest.stylesheet || !manifest.stylesheetSha256) {
    throw new Error(`Client build manifest ${file} is incomplete`);
  }
  const stylesheetFile = path.join(buildDir, manifest.stylesheet);
  let bytes: Buffer;
  try {
    bytes = readFileSync(stylesheetFile);
  } catch {
    throw new Error(`The client build has no stylesheet ${stylesheetFile}: run "npm run build" again`);
  }
  if (inlineStyleHash(bytes) !== manifest.stylesheetSha256) {
    throw new Error(`The stylesheet ${stylesheetFile} is not the one the build hashed: run "npm run build" again`);
  }
  const problem = cannotInline(bytes);
  if (problem) throw new Error(`The stylesheet ${stylesheetFile} cannot be inlined: ${problem}`);
  return {
    script: manifest.script,
    stylesheet: manifest.stylesheet,
    inlineStyle: { text: bytes.toString('utf8'), hash: manifest.stylesheetSha256 },
  };
}
