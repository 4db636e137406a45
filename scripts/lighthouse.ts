/**
 * npm run bench:lighthouse: Lighthouse (Debian's Chromium, offline) against a first visit to /
 * (no cookie: the language overlay a newcomer sees), three runs each with the mobile and the
 * desktop preset; prints the medians and writes bench-results/lighthouse.json.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { APP_ROOT } from '../server/paths.ts';
import { assertChromium, CHROMIUM_PATH, CHROMIUM_FLAGS } from '../test/browser/chromium.ts';
import { startServer } from '../test/helpers/server-process.ts';

const RUNS = 3;
const LIGHTHOUSE = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');
const OUT_DIR = path.join(APP_ROOT, 'bench-results');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

interface LighthouseReport {
  categories: Record<(typeof CATEGORIES)[number], { score: number }>;
  audits: Record<string, { numericValue?: number }>;
  environment: { benchmarkIndex: number };
}

interface RunFigures {
  performance: number;
  accessibility: number;
  'best-practices': number;
  seo: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  transferBytes: number;
  /** Lighthouse's measure of this machine's CPU speed during the run: its simulated phone is 4× slower than that. */
  benchmarkIndex: number;
}

async function lighthouse(url: string, preset: 'mobile' | 'desktop'): Promise<RunFigures> {
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
        '--output=json',
        `--output-path=${output}`,
        `--chrome-flags=--headless ${CHROMIUM_FLAGS.join(' ')} --user-data-dir=${profile}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as LighthouseReport;
    const audit = (id: string) => report.audits[id]?.numericValue ?? NaN;
    return {
      performance: report.categories.performance.score * 100,
      accessibility: report.categories.accessibility.score * 100,
      'best-practices': report.categories['best-practices'].score * 100,
      seo: report.categories.seo.score * 100,
      lcpMs: Math.round(audit('largest-contentful-paint')),
      fcpMs: Math.round(audit('first-contentful-paint')),
      tbtMs: Math.round(audit('total-blocking-time')),
      cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
      transferBytes: audit('total-byte-weight'),
      benchmarkIndex: Math.round(report.environment.benchmarkIndex),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

assertChromium();
execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: APP_ROOT, stdio: 'inherit' });
const server = await startServer();
const results: Record<string, RunFigures[]> = { mobile: [], desktop: [] };
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const preset of ['mobile', 'desktop'] as const) {
      const figures = await lighthouse(`${server.url}/`, preset);
      results[preset]!.push(figures);
      console.log(
        `run ${run}/${RUNS} ${preset}: performance ${figures.performance}, LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms, CPU index ${figures.benchmarkIndex}`,
      );
    }
  }
} finally {
  await server.stop();
}

const medians = Object.fromEntries(
  Object.entries(results).map(([preset, runs]) => [
    preset,
    Object.fromEntries(Object.keys(runs[0]!).map((key) => [key, median(runs.map((r) => r[key as keyof RunFigures]))])),
  ]),
);
console.log(`\nLighthouse ${RUNS}× per preset on a first visit to / (medians)`);
console.table(medians);
mkdirSync(OUT_DIR, { recursive: true });
writeFileSync(path.join(OUT_DIR, 'lighthouse.json'), JSON.stringify({ runs: results, medians }, null, 2));
