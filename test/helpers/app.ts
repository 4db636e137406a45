import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp, type AppDeps } from '../../server/app.ts';
import { loadClientAssets } from '../../server/assets.ts';
import { loadConfig } from '../../server/config.ts';
import { loadContent } from '../../server/content.ts';
import { createReadiness } from '../../server/health.ts';
import { embeddedHeroAssets } from '../../server/hero-assets.ts';
import { loadTranslations, type Translations } from '../../server/i18n.ts';
import { createMetrics } from '../../server/metrics.ts';
import { CLIENT_BUILD_DIR, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/paths.ts';

let translations: Promise<Translations> | undefined;

/** The real app on the shipped content, with a logger whose lines the test can read. */
export async function testApp(overrides: Partial<AppDeps> = {}, env: NodeJS.ProcessEnv = { NODE_ENV: 'test' }) {
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const content = loadContent(DEFAULT_CONTENT_PATH);
  translations ??= loadTranslations(LOCALES_DIR);
  const metrics = createMetrics();
  const deps: AppDeps = {
    config: loadConfig(env),
    content,
    translations: await translations,
    clientAssets: loadClientAssets(CLIENT_BUILD_DIR),
    heroAssets: embeddedHeroAssets(content),
    logger: pino({ level: 'info' }, sink),
    metrics,
    cacheObserver: metrics.cacheObserver,
    readiness: createReadiness(),
    ...overrides,
  };
  return { app: createApp(deps), deps, logLines };
}

/** The JSON the page carries for hydration, read back as the browser reads it. */
export function bootstrapOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="bootstrap-data">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error('no bootstrap data in page');
  return JSON.parse(match[1]!) as Record<string, unknown>;
}
