import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Public addresses of the hashed browser bundle and stylesheet. */
export interface ClientAssets {
  script: string;
  stylesheet: string;
}

export const ASSET_MANIFEST = 'manifest.json';

/** Reads the manifest the build writes; without a build the server cannot serve pages. */
export function loadClientAssets(buildDir: string): ClientAssets {
  const file = path.join(buildDir, ASSET_MANIFEST);
  let manifest: Partial<ClientAssets>;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<ClientAssets>;
  } catch {
    throw new Error(`No client build at ${file}: run "npm run build" first`);
  }
  if (!manifest.script || !manifest.stylesheet) throw new Error(`Client build manifest ${file} is incomplete`);
  return { script: manifest.script, stylesheet: manifest.stylesheet };
}
