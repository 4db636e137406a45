import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CachedEndpoint, CacheObserver, CacheOutcome } from '../../server/backend/cache-events.ts';
import { testApp } from './app.ts';
import { tempDir } from './temp-dirs.ts';
import {
  fileEntry,
  folderEntry,
  json,
  PREFERRED_LOGO,
  type FakeSupabase,
} from '../../scripts/harness/fake-supabase.ts';

/** A clock the test moves by hand; the caches read it, nothing waits for it. */
export class ManualClock {
  constructor(public ms = Date.UTC(2027, 2, 18, 12)) {}
  now = () => this.ms;
  advance(seconds: number) {
    this.ms += seconds * 1000;
  }
}

/** Writes down what the caches report, as the metrics would count it. */
export function recordingObserver() {
  const record = { served: [] as Array<`${CachedEndpoint}:${CacheOutcome}`>, upstreamErrors: [] as CachedEndpoint[] };
  const observer: CacheObserver = {
    served: (endpoint, outcome) => void record.served.push(`${endpoint}:${outcome}`),
    upstreamError: (endpoint) => void record.upstreamErrors.push(endpoint),
  };
  return { observer, record };
}

/** A snapshot path in a folder of its own, removed after the test file. */
export function tempSnapshotPath(): string {
  return path.join(tempDir('backend-snapshot-'), 'snapshot.json');
}

export interface BackendAppOptions {
  env?: NodeJS.ProcessEnv;
  clock?: ManualClock;
  snapshotPath?: string;
  /** Make the pictures of the hero's photos (PHOTOS_PATH in `env`, else a folder of its own). */
  photos?: boolean;
}

/** The real app pointed at the fake backend, on a clock the test moves, with its own snapshot file. */
export async function backendApp(fake: FakeSupabase, options: BackendAppOptions = {}) {
  const clock = options.clock ?? new ManualClock();
  const { observer, record } = recordingObserver();
  const snapshotPath = options.snapshotPath ?? tempSnapshotPath();
  const env = {
    NODE_ENV: 'test',
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: fake.key,
    CACHE_SNAPSHOT_PATH: snapshotPath,
    PHOTOS_PATH: path.join(path.dirname(snapshotPath), 'photos'),
    UPSTREAM_TIMEOUT_MS: '2000',
    ...options.env,
  };
  const built = await testApp({ now: clock.now, cacheObserver: observer, photos: options.photos ?? false }, env);
  return { ...built, clock, record, snapshotPath };
}

/** Three studios on the fake's own origin. */
export function sampleSlides(fake: FakeSupabase) {
  return [
    { image: fake.image('munich.jpg'), studio: 'Studio München' },
    { image: fake.image('marbella.jpg'), studio: 'Studio Marbella' },
    { image: fake.image('vienna.jpg'), studio: 'Studio Wien' },
  ];
}

/** The fake answering as a healthy project does: slides, and a bucket holding the preferred logo among others. */
export function answerNormally(fake: FakeSupabase, slides = sampleSlides(fake)) {
  fake.reply.heroImages = json({ heroSlides: slides });
  fake.reply.logoList = json([
    folderEntry('archive'),
    fileEntry('.emptyFolderPlaceholder'),
    fileEntry('a-first.png'),
    fileEntry(PREFERRED_LOGO),
  ]);
}

export const publicLogoUrl = (fake: FakeSupabase, name = PREFERRED_LOGO) =>
  `${fake.url}/storage/v1/object/public/logo/${name}`;

/** Waits until the snapshot file holds an answer for each endpoint named. */
export async function snapshotWith(
  file: string,
  endpoints: string[],
): Promise<{ backend: string; entries: Record<string, { value: unknown; fetchedAt: number }> }> {
  for (let tries = 0; tries < 200; tries++) {
    try {
      const contents = JSON.parse(readFileSync(file, 'utf8')) as {
        backend: string;
        entries: Record<string, { value: unknown; fetchedAt: number }>;
      };
      if (endpoints.every((endpoint) => endpoint in contents.entries)) return contents;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no snapshot with ${endpoints.join(', ')} at ${file}`);
}

export const warnings = (logLines: Record<string, unknown>[]) => logLines.filter((line) => line.level === 40);
