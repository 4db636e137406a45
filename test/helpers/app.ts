import { LANGUAGES } from './languages.ts';
import type { BootstrapData } from '../../shared/bootstrap.ts';
import { once } from 'node:events';
import { createServer, get as httpGet, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Test } from 'supertest';
import { createApp, type AppDeps } from '../../server/app.ts';
import type { HeroSource } from '../../server/hero/hero-source.ts';
import type { HeroSlide, PageAssets } from '../../shared/page-data.ts';
import type { Language } from '../../shared/languages.ts';
import { loadClientAssets } from '../../server/static/client-assets.ts';
import { loadConfig } from '../../server/config/environment.ts';
import { loadContent } from '../../server/content/site-content.ts';
import { createReadiness } from '../../server/ops/health.ts';
import { loadTranslations, type Translations } from '../../server/content/translations.ts';
import { createMetrics } from '../../server/ops/metrics.ts';
import { CLIENT_BUILD_DIR, DEFAULT_CONTENT_PATH, LOCALES_DIR } from '../../server/config/paths.ts';

let translations: Promise<Translations> | undefined;

/** The real dictionaries, loaded once per test file. */
export function sharedTranslations(): Promise<Translations> {
  translations ??= loadTranslations(LOCALES_DIR, LANGUAGES);
  return translations;
}

/**
 * The real texts of one language as the pages show them: nested keys (`$t(product)`) resolved and
 * `{{cities}}` standing for the shipped content's cities.
 */
export async function shownTexts(language: Language): Promise<(key: string) => string> {
  const { t } = (await sharedTranslations()).forRequest(language);
  const { cityList } = loadContent(DEFAULT_CONTENT_PATH).public;
  return (key) => t(key, { cities: cityList[language]! });
}

/** The real dictionaries, counting every per-request instance (one per render). */
export async function countingTranslations(): Promise<Translations & { renders: number }> {
  const real = await sharedTranslations();
  const counting = {
    ...real,
    renders: 0,
    forRequest(language: Parameters<Translations['forRequest']>[0]) {
      counting.renders++;
      return real.forRequest(language);
    },
  };
  return counting;
}

/**
 * The real app on the shipped content, with a logger whose lines the test can read.
 * With SUPABASE_URL and SUPABASE_ANON_KEY in `env`, the hero assets come from that backend.
 */
export async function testApp(overrides: Partial<AppDeps> = {}, env: NodeJS.ProcessEnv = { NODE_ENV: 'test' }) {
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean))
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const content = loadContent(DEFAULT_CONTENT_PATH);
  const metrics = createMetrics();
  const deps: AppDeps = {
    config: loadConfig(env),
    content,
    translations: await sharedTranslations(),
    clientAssets: loadClientAssets(CLIENT_BUILD_DIR),
    logger: pino({ level: 'info' }, sink),
    metrics,
    cacheObserver: metrics.cacheObserver,
    readiness: createReadiness(),
    // The pictures of the hero's photos are made in test/photos; elsewhere the page shows the addresses given.
    photos: false,
    ...overrides,
  };
  return { app: createApp(deps), deps, logLines };
}

/** The JSON the page carries for hydration, read back as the browser reads it. */
export function bootstrapOf(html: string): BootstrapData {
  const match = /<script type="application\/json" id="bootstrap-data">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error('no bootstrap data in page');
  return JSON.parse(match[1]!) as BootstrapData;
}

const NEW_ANSWER = { outcome: 'hit', ageMs: 0, failing: false, failureStatus: null } as const;

/** A backend's slides and logo: each slide labelled with its studio. */
export type LabelledAssets = PageAssets & { heroSlides: HeroSlide[] | null };

/** A hero source that always answers with the given slides and logo. */
export function fixedHeroAssets(assets: LabelledAssets): HeroSource {
  return {
    get: async () => assets,
    current: () => assets,
    heroSlides: async () => ({ ...NEW_ANSWER, value: assets.heroSlides ?? [] }),
    logo: async () => ({ ...NEW_ANSWER, value: assets.logoUrl }),
  };
}

/** A supertest request whose body is read as bytes (decoded from br and gzip, as a browser does). */
export function bodyBytes(req: Test): Test {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as sent, not decompressed. */
  body: Buffer;
}

/** One request to the app over a real socket, with the body left as it came over the wire. */
export async function rawGet(
  app: RequestListener,
  path: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<RawResponse>((resolve, reject) => {
      httpGet({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}
