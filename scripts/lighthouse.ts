/**
 * npm run bench:lighthouse: Lighthouse (Debian's Chromium, offline) against a first visit to /
 * (no cookie: the language overlay a newcomer sees), five runs per preset, once with the content
 * file's own slides and once with a Supabase stand-in on loopback serving the slides; and against
 * a returning visitor (the language cookie set, the cache cold), once on the content file's
 * slides and once on a server whose backend, on an origin of its own, serves a camera's photos
 * (1920 × 1080 JPEGs of about 770 KB, as grainy as a dim studio's) and a 64 × 64 logo, once the
 * server has made its pictures of them. Prints each run with the main thread's long tasks in the
 * browser's trace, the medians with the largest contentful paint's element and breakdown and the
 * long tasks by kind, the budgets, the returning visit's bytes by kind and failing best-practices
 * audits, and writes bench-results/lighthouse.json. Exits with 1 when a mobile budget is missed
 * (a returning visitor's: TBT, CLS and the scores).
 *
 * The browser's clock is in the event's time zone (the content file's `event.timeZone`), as
 * for most of the event's audience; a visitor elsewhere also gets the event's times on their
 * own clock, which costs one Intl formatter's set-up once the page is shown, at an idle moment
 * (--visitor-zone UTC shows it).
 *
 * Options: --runs N (default 5), --presets mobile,desktop (default both), --visitor-zone ZONE,
 * --sites content,backend,returning,photos (default all four; returning: a returning visitor on the
 * content file's slides).
 *
 * --smoke: one run, mobile, on the content file's slides and on the returning visitor with the
 * backend's photos, as CI runs it. It fails (exit 1) when Lighthouse errors, when the page's
 * JavaScript did not load (the app module the page's starter imports was not requested or did not
 * arrive with 200), when the server named no pictures of the backend's photos within two minutes,
 * or when the returning visit fetched none of the first slide's or the logo's, or anything from
 * the backend itself; it judges no budget: timings vary from run to run. Writes
 * bench-results/lighthouse-smoke.json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { loadContent } from '../server/content/site-content.ts';
import { APP_ROOT, DEFAULT_CONTENT_PATH, PUBLIC_DIR } from '../server/config/paths.ts';
import { assertChromium, CHROMIUM_PATH, CHROMIUM_FLAGS } from './harness/chromium.ts';
import { fileEntry, json, PREFERRED_LOGO, startFakeSupabase } from './harness/fake-supabase.ts';
import { startServer, type RunningServer } from './harness/server-process.ts';
import { kib } from './bench/bytes-by-kind.ts';
import {
  lighthouseFigures,
  networkTransfers,
  photoVisitFigures,
  runProblems,
  type LighthouseReport,
  type PhotoVisitFigures,
  type RunFigures,
} from './bench/lighthouse-figures.ts';
import { pagePictures, photoVisitProblems, type PagePictures } from './bench/page-pictures.ts';
import { madeByServer, startPhotoBackend } from './bench/photo-backend.ts';
import { appModuleOf, WEIGHT_BUDGET } from './bench/weight.ts';
import { median } from './bench/median.ts';
import {
  describeTask,
  LONG_ON_PHONE_MS,
  mainThreadTasks,
  TASK_KINDS,
  totalMs,
  type MainThreadTask,
  type TraceEvent,
} from './bench/main-thread-tasks.ts';
import { buildProduction } from './harness/build.ts';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string' },
    presets: { type: 'string' },
    'visitor-zone': { type: 'string' },
    sites: { type: 'string' },
    smoke: { type: 'boolean', default: false },
  },
});
const SMOKE = options.smoke;
const EVENT_ZONE = loadContent(DEFAULT_CONTENT_PATH).public.event.timeZone;
const VISITOR_ZONE = options['visitor-zone'] ?? EVENT_ZONE;
const RUNS = Number(options.runs ?? (SMOKE ? 1 : 5));
const PRESETS = (options.presets ?? (SMOKE ? 'mobile' : 'mobile,desktop')).split(',') as Preset[];
type Preset = 'mobile' | 'desktop';
const SITES = (options.sites ?? (SMOKE ? 'content,photos' : 'content,backend,returning,photos')).split(
  ',',
) as SiteName[];
type SiteName = 'content' | 'backend' | 'returning' | 'photos';
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a whole number of at least 1');
for (const preset of PRESETS) {
  if (preset !== 'mobile' && preset !== 'desktop') throw new Error(`Unknown preset "${preset}": mobile or desktop`);
}
for (const site of SITES) {
  if (!['content', 'backend', 'returning', 'photos'].includes(site)) {
    throw new Error(`Unknown site "${site}": content, backend, returning or photos`);
  }
}
const LIGHTHOUSE = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');
const OUT_DIR = path.join(APP_ROOT, 'bench-results');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
/**
 * Lighthouse now and then loses its trace (NO_NAVSTART): on a loaded machine, and here about one
 * run in ten since the first frame waits for the document's end (`rel=expect`). Such a run is
 * repeated.
 */
const ATTEMPTS = 5;
/** A returning visitor: the language chosen on an earlier visit, and nothing of the site in the cache. */
const RETURNING = { Cookie: 'selectedLanguage=en' };

/** What the mobile medians must hold on a first visit. */
const MOBILE_BUDGETS: { label: string; key: keyof RunFigures; max?: number; min?: number }[] = [
  { label: 'LCP ≤ 1000 ms', key: 'lcpMs', max: 1000 },
  { label: 'FCP ≤ 900 ms', key: 'fcpMs', max: 900 },
  { label: 'TBT ≤ 50 ms', key: 'tbtMs', max: 50 },
  { label: 'CLS 0', key: 'cls', max: 0 },
  { label: 'performance 100', key: 'performance', min: 100 },
  { label: 'accessibility 100', key: 'accessibility', min: 100 },
  { label: 'best practices 100', key: 'bestPractices', min: 100 },
  { label: 'SEO 100', key: 'seo', min: 100 },
  // The same budget as npm run bench's (scripts/bench/weight.ts), here as Lighthouse counts the
  // bytes: transferred, with each answer's headers.
  { label: `JavaScript ≤ ${WEIGHT_BUDGET.js / 1024} KiB`, key: 'scriptKB', max: WEIGHT_BUDGET.js / 1024 },
];
/**
 * What they must hold for a returning visitor: the main thread as free as on a first visit. Its
 * LCP is the hero (no overlay), and the backend's photos weigh more than the content file's.
 */
const RETURNING_BUDGETS = MOBILE_BUDGETS.filter(({ key }) =>
  ['tbtMs', 'cls', 'performance', 'accessibility', 'bestPractices'].includes(key),
);

/** A returning visitor's main thread as free as a first visit's: its TBT at most this times the first visit's, in the same run. */
const RETURNING_TBT_RATIO = 1.5;

/** What a returning phone fetches with the backend's camera photos, in every run: in all, and of one slide's picture. */
const PHOTO_BUDGETS: { label: string; bytes: (run: PhotoVisitFigures) => number; max: number }[] = [
  { label: 'fetched ≤ 350 KiB', bytes: (run) => run.totalBytes, max: 350 * 1024 },
  { label: 'each slide picture ≤ 100 KiB', bytes: (run) => run.largestSlidePictureBytes, max: 100 * 1024 },
];

/** One Lighthouse run: its report, and the main thread's long tasks in the trace it recorded. */
async function lighthouse(
  url: string,
  preset: Preset,
  headers?: Record<string, string>,
): Promise<{ report: LighthouseReport; tasks: MainThreadTask[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
  const profile = path.join(dir, 'profile');
  const output = path.join(dir, 'report.json');
  try {
    await promisify(execFile)(
      process.execPath,
      [
        LIGHTHOUSE,
        url,
        '--quiet',
        '--no-enable-error-reporting',
        `--only-categories=${CATEGORIES.join(',')}`,
        ...(preset === 'desktop' ? ['--preset=desktop'] : []),
        ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
        '--output=json',
        `--output-path=${output}`,
        // Writes the trace beside the report, as report-0.trace.json.
        '--save-assets',
        // Software compositing, as every figure in docs/speed.md was measured.
        `--chrome-flags=--headless ${CHROMIUM_FLAGS.join(' ')} --disable-gpu --user-data-dir=${profile}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH, TZ: VISITOR_ZONE }, maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
    const trace = JSON.parse(readFileSync(path.join(dir, 'report-0.trace.json'), 'utf8')) as {
      traceEvents: TraceEvent[];
    };
    return { report, tasks: mainThreadTasks(trace.traceEvents) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run's figures, and what it shows wrong with the page (see runProblems and photoVisitProblems). */
async function measure(
  site: Site,
  preset: Preset,
): Promise<{ figures: RunFigures; tasks: MainThreadTask[]; photos?: PhotoVisitFigures; problems: string[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { report, tasks } = await lighthouse(`${site.server.url}/`, preset, site.headers);
      if (report.runtimeError) throw new Error(`${report.runtimeError.code}: ${report.runtimeError.message}`);
      const problems = runProblems(report, site.appModule);
      if (!site.photos) return { figures: lighthouseFigures(report), tasks, problems };
      const { pictures, backendOrigin } = site.photos;
      return {
        figures: lighthouseFigures(report),
        tasks,
        photos: photoVisitFigures(report, pictures),
        problems: [...problems, ...photoVisitProblems(networkTransfers(report), pictures, backendOrigin)],
      };
    } catch (error) {
      const reason = String((error as { stderr?: string }).stderr || (error as Error).message).trim();
      if (attempt === ATTEMPTS) throw new Error(`Lighthouse failed ${ATTEMPTS} times: ${reason}`);
      console.log(`  Lighthouse failed (${reason.split('\n')[0]}), once more`);
    }
  }
}

/** Where a preset's runs of a site are kept and reported: "mobile, content file". */
function resultKey(preset: Preset, site: Site): string {
  return `${preset}, ${site.name}`;
}

/** The run with the median LCP: its element and breakdown add up to the LCP shown. */
function medianRun(runs: RunFigures[]): RunFigures {
  return [...runs].sort((a, b) => a.lcpMs - b.lcpMs)[runs.length >> 1]!;
}

// ---- Build, and start the servers: on the content file's slides, on a backend's, and on a backend's camera photos.
assertChromium();
buildProduction();

// The stand-in serves each slide as one 1600 px JPEG with no smaller sizes, as an editor's upload
// would be, and the logo as a PNG.
const backend = await startFakeSupabase();
const cities = ['munich', 'marbella', 'vienna', 'zurich'];
for (const city of cities) {
  backend.objects.set(`hero/${city}.jpg`, {
    body: readFileSync(path.join(PUBLIC_DIR, 'images/hero', `${city}-1600.jpg`)),
    contentType: 'image/jpeg',
  });
}
backend.reply.heroImages = json({
  heroSlides: cities.map((city) => ({ image: backend.image(`${city}.jpg`), studio: `Studio ${city}` })),
});
backend.reply.logoList = json([fileEntry(PREFERRED_LOGO)]);
backend.objects.set(`logo/${PREFERRED_LOGO}`, {
  body: await sharp(path.join(PUBLIC_DIR, 'favicon.svg')).resize({ height: 160 }).png().toBuffer(),
  contentType: 'image/png',
});
const photoBackend = SITES.includes('photos') ? await startPhotoBackend() : null;
if (photoBackend) {
  const served = Object.entries(photoBackend.served).map(([name, bytes]) => `${name} ${kib(bytes)} KiB`);
  console.log(`The backend's photos, from ${photoBackend.backend.url}: ${served.join(', ')}`);
}

interface Site {
  name: string;
  server: RunningServer;
  appModule: string;
  /** What the browser sends with every request: a returning visitor's cookie. */
  headers?: Record<string, string>;
  /** The backend's photos: the pictures the page names, and the origin the browser must never ask. */
  photos?: { pictures: PagePictures; backendOrigin: string };
}
/** The first visit on the content file's slides: what a returning visitor's main thread is held to. */
const FIRST_VISIT_SITE = 'content file';
const startSite = async (name: SiteName): Promise<Site> => {
  if (name === 'content')
    return { name: FIRST_VISIT_SITE, server: await startServer({}, [], { stdout: 'discard' }), appModule: '' };
  if (name === 'returning') {
    const server = await startServer({}, [], { stdout: 'discard' });
    return { name: 'returning, content file', server, appModule: '', headers: RETURNING };
  }
  if (name === 'backend') {
    const env = { SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.key };
    return { name: 'backend', server: await startServer(env, [], { stdout: 'discard' }), appModule: '' };
  }
  const { url, key } = photoBackend!.backend;
  // Its log is kept: what it says of the photos explains a wait that timed out.
  const server = await startServer({ SUPABASE_URL: url, SUPABASE_ANON_KEY: key });
  const pictures = await madeByServer(server, RETURNING).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  return {
    name: 'returning, backend photos',
    server,
    appModule: '',
    headers: RETURNING,
    photos: { pictures, backendOrigin: new URL(url).origin },
  };
};
const sites: Site[] = [];
try {
  for (const name of SITES) sites.push(await startSite(name));
} catch (error) {
  await Promise.all([...sites.map(({ server }) => server.stop()), backend.close(), photoBackend?.backend.close()]);
  throw error;
}

// Every visitor but the first gets a page the server rendered before: so does Lighthouse. The page
// names the app module its starter imports, which the run must see loaded.
for (const site of sites) {
  const page = await fetch(`${site.server.url}/`, { headers: { 'accept-encoding': 'br', ...site.headers } });
  if (page.status !== 200) throw new Error(`GET / on the ${site.name}'s server answered ${page.status}`);
  const html = await page.text();
  site.appModule = appModuleOf(html);
  if (site.photos) site.photos.pictures = pagePictures(html);
}

const results: Record<string, RunFigures[]> = {};
const photoResults: Record<string, PhotoVisitFigures[]> = {};
const taskResults: Record<string, MainThreadTask[][]> = {};
const failures: string[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const site of sites) {
      for (const preset of PRESETS) {
        const { figures, tasks, photos, problems } = await measure(site, preset);
        const key = resultKey(preset, site);
        (results[key] ??= []).push(figures);
        (taskResults[key] ??= []).push(tasks);
        failures.push(...problems.map((problem) => `run ${run} ${key}: ${problem}`));
        console.log(
          `run ${run}/${RUNS} ${key}: performance ${figures.performance}, FCP ${figures.fcpMs} ms, LCP ${figures.lcpMs} ms (${figures.lcpElement}), TBT ${figures.tbtMs} ms, CPU index ${figures.benchmarkIndex}\n  loaded before the first paint: ${figures.beforeFirstPaint.join(', ')}\n  main-thread tasks of ${LONG_ON_PHONE_MS} ms or more: ${tasks.map(describeTask).join(', ') || 'none'}`,
        );
        if (photos) {
          (photoResults[key] ??= []).push(photos);
          console.log(
            `  fetched ${kib(photos.totalBytes)} KiB, of it hero photos ${kib(photos.byKind['hero photos'])} KiB (the first slide ${kib(photos.firstSlideBytes)} KiB), logo ${kib(photos.byKind.logo)} KiB; best practices ${figures.bestPractices}, accessibility ${figures.accessibility}${photos.failingAudits.length ? `, failing ${photos.failingAudits.map(({ id }) => id).join(', ')}` : ''}`,
          );
        }
      }
    }
  }
} finally {
  await Promise.all([...sites.map(({ server }) => server.stop()), backend.close(), photoBackend?.backend.close()]);
}

// ---- Report.
const medians = Object.fromEntries(
  Object.entries(results).map(([key, runs]) => {
    const numeric = Object.keys(runs[0]!).filter((field) => typeof runs[0]![field as keyof RunFigures] === 'number');
    return [
      key,
      Object.fromEntries(
        numeric.map((field) => [field, median(runs.map((r) => r[field as keyof RunFigures] as number))]),
      ),
    ] as const;
  }),
) as Record<string, Record<string, number>>;

console.log(
  `\nLighthouse ${RUNS}× per preset on / (medians), the browser's clock in ${VISITOR_ZONE}` +
    (VISITOR_ZONE === EVENT_ZONE ? " (the event's zone)" : ` (the event's is ${EVENT_ZONE})`),
);
console.table(
  Object.fromEntries(
    Object.entries(medians).map(([key, m]) => [
      key,
      {
        perf: m.performance,
        a11y: m.accessibility,
        'best pr.': m.bestPractices,
        SEO: m.seo,
        'FCP ms': m.fcpMs,
        'LCP ms': m.lcpMs,
        'TBT ms': m.tbtMs,
        CLS: m.cls,
        'JS KB': m.scriptKB,
        'CPU index': m.benchmarkIndex,
      },
    ]),
  ),
);

console.log('\nLargest contentful paint of the median run: element and breakdown (ms)');
console.table(
  Object.fromEntries(
    Object.entries(results).map(([key, runs]) => {
      const run = medianRun(runs);
      return [
        key,
        {
          LCP: run.lcpMs,
          TTFB: run.lcp.ttfbMs,
          'load delay': run.lcp.loadDelayMs ?? '–',
          'load time': run.lcp.loadTimeMs ?? '–',
          'render delay': run.lcp.renderDelayMs,
          element: run.lcpElement,
        },
      ];
    }),
  ),
);

console.log(
  `\nThe main thread's tasks of ${LONG_ON_PHONE_MS} ms or more in the browser's trace (unthrottled; Lighthouse's phone replays them 4× slower), medians over the runs: how many, and their ms by kind`,
);
console.table(
  Object.fromEntries(
    Object.entries(taskResults).map(([key, runs]) => [
      key,
      {
        tasks: median(runs.map((tasks) => tasks.length)),
        ...Object.fromEntries(
          TASK_KINDS.map((kind) => [
            kind,
            median(runs.map((tasks) => Math.round(totalMs(tasks.filter((task) => task.kind === kind))))),
          ]),
        ),
        "longest not Chromium's commit": median(
          runs.map((tasks) => Math.max(0, ...tasks.filter(({ kind }) => kind !== 'commit').map((t) => t.durationMs))),
        ),
      },
    ]),
  ),
);

if (Object.keys(photoResults).length) {
  console.log(
    `\nA returning visitor (language chosen, cache cold) with the backend's photos, ${Object.values(photoResults)[0]!.length}× (medians; KiB as transferred)`,
  );
  console.table(
    Object.fromEntries(
      Object.entries(photoResults).map(([key, runs]) => {
        const m = medians[key]!;
        const of = (bytes: (figures: PhotoVisitFigures) => number) => kib(median(runs.map(bytes)));
        return [
          key,
          {
            perf: m.performance,
            'LCP ms': m.lcpMs,
            CLS: m.cls,
            'TBT ms': m.tbtMs,
            'best pr.': m.bestPractices,
            a11y: m.accessibility,
            total: of((r) => r.totalBytes),
            'hero photos': of((r) => r.byKind['hero photos']),
            'first slide': of((r) => r.firstSlideBytes),
            logo: of((r) => r.byKind.logo),
            document: of((r) => r.byKind.document),
            script: of((r) => r.byKind.script),
            'json/api': of((r) => r.byKind['json/api']),
          },
        ];
      }),
    ),
  );
  for (const [key, runs] of Object.entries(photoResults)) {
    const failing = new Map<string, { runs: number; items: Set<string> }>();
    for (const audit of runs.flatMap((run) => run.failingAudits)) {
      const name = `${audit.category} ${audit.id}`;
      const seen = failing.get(name) ?? { runs: 0, items: new Set<string>() };
      seen.runs += 1;
      for (const item of audit.items) seen.items.add(item);
      failing.set(name, seen);
    }
    const listed = [...failing].map(
      ([id, { runs: count, items }]) =>
        `${id} in ${count} of ${runs.length} runs${items.size ? ` (${[...items].join(', ')})` : ''}`,
    );
    console.log(`Audits failed, ${key}: ${listed.join('; ') || 'none'}`);
  }
}

let missed = 0;
const returningVisits = new Set(sites.filter(({ headers }) => headers).map((site) => resultKey('mobile', site)));
for (const [key, m] of Object.entries(medians).filter(([key]) => key.startsWith('mobile') && !SMOKE)) {
  const budgets = returningVisits.has(key) ? RETURNING_BUDGETS : MOBILE_BUDGETS;
  const verdicts = budgets.map(({ label, key: field, max, min }) => {
    const value = m[field]!;
    const held = (max === undefined || value <= max) && (min === undefined || value >= min);
    if (!held) missed++;
    return `${label}: ${value} ${held ? 'ok' : 'MISSED'}`;
  });
  const firstVisit = medians[`mobile, ${FIRST_VISIT_SITE}`];
  if (returningVisits.has(key) && firstVisit) {
    const bound = firstVisit.tbtMs! * RETURNING_TBT_RATIO;
    const held = m.tbtMs! <= bound;
    if (!held) missed++;
    verdicts.push(
      `TBT ≤ ${RETURNING_TBT_RATIO}× the first visit's (${bound} ms): ${m.tbtMs} ${held ? 'ok' : 'MISSED'}`,
    );
  }
  for (const { label, bytes, max } of photoResults[key] ? PHOTO_BUDGETS : []) {
    const most = Math.max(...photoResults[key]!.map(bytes));
    const held = most <= max;
    if (!held) missed++;
    verdicts.push(`${label}: at most ${kib(most)} KiB ${held ? 'ok' : 'MISSED'}`);
  }
  console.log(`\nBudgets, ${key}: ${verdicts.join(' · ')}`);
}

if (SMOKE) console.log('\nSmoke run: no budget judged (timings vary from run to run).');

mkdirSync(OUT_DIR, { recursive: true });
const resultsFile = path.join(OUT_DIR, SMOKE ? 'lighthouse-smoke.json' : 'lighthouse.json');
writeFileSync(
  resultsFile,
  JSON.stringify(
    { smoke: SMOKE, runs: results, medians, mainThreadTasks: taskResults, returningWithPhotos: photoResults, failures },
    null,
    2,
  ),
);
console.log(`\nFigures written to ${path.relative(APP_ROOT, resultsFile)}`);
if (failures.length) {
  console.error(`\nLighthouse FAILED: the page did not work in ${failures.length} run(s):`);
  for (const failure of failures) console.error(`  ${failure}`);
  process.exitCode = 1;
} else if (SMOKE) {
  console.log(
    `Smoke run passed: Lighthouse ran, the page loaded its app module ${sites[0]!.appModule} with 200` +
      (photoBackend ? ", and the returning visitor got the server's pictures of the backend's photos." : '.'),
  );
}
if (missed > 0) process.exitCode = 1;
