/** The figures npm run bench:lighthouse reads out of one Lighthouse JSON report. */
import { bytesByKind, bytesOfPhoto, kindOf, type ByteKind, type Transfer } from './bytes-by-kind.ts';
import type { PagePictures } from './page-pictures.ts';

export interface LighthouseReport {
  /** A score is null when Lighthouse could not compute it (the page failed to load, an audit errored). */
  categories: Record<
    'performance' | 'accessibility' | 'best-practices' | 'seo',
    { score: number | null; auditRefs?: { id: string; weight: number }[] }
  >;
  audits: Record<
    string,
    { score?: number | null; numericValue?: number; details?: { type: string; items?: unknown[] } }
  >;
  environment: { benchmarkIndex: number };
  requestedUrl: string;
  /** Set when the run failed as a whole (the page did not load, its document answered an error, …). */
  runtimeError?: { code: string; message: string };
}

/** The phases of the largest contentful paint, in ms; the load phases only when it is an image. */
export interface LcpBreakdown {
  ttfbMs: number;
  loadDelayMs?: number;
  loadTimeMs?: number;
  renderDelayMs: number;
}

export interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Every script the page loaded until the network was quiet, as transferred (KB of 1024 bytes). */
  scriptKB: number;
  /** Lighthouse's measure of this machine's CPU speed during the run: its simulated phone is 4× slower than that. */
  benchmarkIndex: number;
  /** The largest contentful paint's element, as a short CSS selector. */
  lcpElement: string;
  lcpSnippet: string;
  lcp: LcpBreakdown;
  /**
   * What had finished loading when the page first painted (unthrottled, as observed): Lighthouse's
   * simulation replays these before the first paint, so each of them adds to the simulated FCP and LCP.
   */
  beforeFirstPaint: string[];
}

interface TimingSummary {
  largestContentfulPaint: number;
  observedFirstContentfulPaint: number;
  timeToFirstByte: number;
  /** With simulated throttling, when the LCP image's request started (ms since navigation). */
  lcpLoadDelay?: number;
  /** With simulated throttling, when the LCP image's request ended. */
  lcpLoadDuration?: number;
}

interface NodeItem {
  type: 'node';
  selector?: string;
  snippet?: string;
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
  mimeType?: string;
  statusCode?: number;
  finished?: boolean;
  transferSize?: number;
  /** ms since the navigation started */
  networkEndTime?: number;
}

export function lighthouseFigures(report: LighthouseReport): RunFigures {
  const audit = (id: string) => report.audits[id]?.numericValue ?? NaN;
  const items = <T>(id: string) => (report.audits[id]?.details?.items ?? []) as T[];
  const score = (category: keyof LighthouseReport['categories']) =>
    Math.round((report.categories[category].score ?? NaN) * 100);
  const element = items<{ type: string }>('lcp-breakdown-insight').find(
    (item): item is NodeItem => item.type === 'node',
  );
  const requests = items<NetworkRequest>('network-requests');
  const timing = items<TimingSummary>('metrics')[0]!;
  const scriptBytes = requests
    .filter((request) => request.resourceType === 'Script')
    .reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcpMs: Math.round(audit('first-contentful-paint')),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
    scriptKB: Math.round(scriptBytes / 102.4) / 10,
    benchmarkIndex: Math.round(report.environment.benchmarkIndex),
    lcpElement: element?.selector?.split(' > ').at(-1) ?? 'unknown',
    lcpSnippet: element?.snippet ?? '',
    lcp: lcpBreakdown(timing),
    beforeFirstPaint: requests
      .filter((request) => (request.networkEndTime ?? Infinity) <= timing.observedFirstContentfulPaint)
      .map((request) => shortName(request.url, report.requestedUrl)),
  };
}

/**
 * The four phases from Lighthouse's timing summary. Under simulated throttling it gives the
 * simulated time to first byte and the simulated start and end of the LCP image's request;
 * what remains up to the simulated LCP is render delay.
 */
export function lcpBreakdown(timing: TimingSummary): LcpBreakdown {
  const {
    largestContentfulPaint: lcp,
    timeToFirstByte: ttfb,
    lcpLoadDelay: loadStart,
    lcpLoadDuration: loadEnd,
  } = timing;
  if (loadStart === undefined || loadEnd === undefined) {
    return { ttfbMs: Math.round(ttfb), renderDelayMs: Math.round(lcp - ttfb) };
  }
  return {
    ttfbMs: Math.round(ttfb),
    loadDelayMs: Math.round(loadStart - ttfb),
    loadTimeMs: Math.round(loadEnd - loadStart),
    renderDelayMs: Math.round(lcp - loadEnd),
  };
}

/** A request by its file name, with the host when it is not the page's own. */
function shortName(url: string, page: string): string {
  if (url.startsWith('data:')) return 'data:…';
  const { host, pathname } = new URL(url);
  const name = pathname.split('/').filter(Boolean).at(-1) ?? '/';
  return host === new URL(page).host ? name : `${host}/…/${name}`;
}

/**
 * Why a run does not show the page working (none when it does): Lighthouse reported an error or
 * could not score a category, or the page's JavaScript did not load: the app module at
 * `appModule` (its path, as the page's starter imports it) was not requested, or did not arrive
 * whole with status 200.
 */
export function runProblems(report: LighthouseReport, appModule: string): string[] {
  const problems: string[] = [];
  if (report.runtimeError) problems.push(`Lighthouse: ${report.runtimeError.code} ${report.runtimeError.message}`);
  for (const [category, { score }] of Object.entries(report.categories)) {
    if (typeof score !== 'number') problems.push(`no ${category} score`);
  }
  const requests = (report.audits['network-requests']?.details?.items ?? []) as NetworkRequest[];
  const page = new URL(report.requestedUrl);
  const loads = requests.filter((request) => {
    const url = new URL(request.url);
    return url.origin === page.origin && url.pathname === appModule;
  });
  if (!loads.length) {
    problems.push(`the page's JavaScript did not load: no request for its app module ${appModule}`);
  } else if (!loads.some((request) => request.statusCode === 200 && request.finished !== false)) {
    const statuses = loads.map(
      (request) => `${request.statusCode ?? 'no status'}${request.finished === false ? ', unfinished' : ''}`,
    );
    problems.push(`the page's JavaScript did not load: its app module ${appModule} answered ${statuses.join('; ')}`);
  } else if (!loads.some((request) => request.resourceType === 'Script')) {
    problems.push(
      `${appModule} loaded, but not as a script (${loads.map((request) => request.resourceType).join(', ')})`,
    );
  }
  return problems;
}

/** What a visit with the backend's photos fetched, and what best practices it failed. */
export interface PhotoVisitFigures {
  /** Every response, as transferred (Lighthouse's total byte weight). */
  totalBytes: number;
  byKind: Record<ByteKind | 'total', number>;
  /** The pictures of the first slide's photo, the one the page shows first. */
  firstSlideBytes: number;
  /** The largest single picture of a slide the page fetched. */
  largestSlidePictureBytes: number;
  /** The best-practices and accessibility audits that lowered their scores, each with what it names. */
  failingAudits: FailingAudit[];
}

export interface FailingAudit {
  category: 'best-practices' | 'accessibility';
  id: string;
  /** The files (by name) or elements (by their HTML's start) it found wanting. */
  items: string[];
}

export function photoVisitFigures(report: LighthouseReport, pictures: PagePictures): PhotoVisitFigures {
  const transfers = networkTransfers(report);
  return {
    totalBytes: Math.round(report.audits['total-byte-weight']?.numericValue ?? NaN),
    byKind: bytesByKind(transfers),
    firstSlideBytes: pictures.slides[0] ? bytesOfPhoto(transfers, pictures.slides[0]) : 0,
    largestSlidePictureBytes: Math.max(0, ...transfers.filter((t) => kindOf(t) === 'hero photos').map((t) => t.bytes)),
    failingAudits: (['best-practices', 'accessibility'] as const).flatMap((category) =>
      failingAudits(report, category).map((id) => ({
        category,
        id,
        items: ((report.audits[id]?.details?.items ?? []) as { url?: string; node?: NodeItem }[]).flatMap((item) =>
          item.url
            ? [shortName(item.url, report.requestedUrl)]
            : item.node
              ? [(item.node.snippet ?? item.node.selector ?? 'an element').slice(0, 120)]
              : [],
        ),
      })),
    ),
  };
}

/** Every response Lighthouse saw, as transferred. */
export function networkTransfers(report: LighthouseReport): Transfer[] {
  return ((report.audits['network-requests']?.details?.items ?? []) as NetworkRequest[]).map((request) => ({
    url: request.url,
    resourceType: request.resourceType ?? 'Other',
    ...(request.mimeType ? { mimeType: request.mimeType } : {}),
    bytes: request.transferSize ?? 0,
  }));
}

/** The audits of a category that lowered its score: weighed, and scored below 1. */
export function failingAudits(report: LighthouseReport, category: keyof LighthouseReport['categories']): string[] {
  return (report.categories[category].auditRefs ?? [])
    .filter(({ id, weight }) => {
      const score = report.audits[id]?.score;
      return weight > 0 && typeof score === 'number' && score < 1;
    })
    .map(({ id }) => id);
}
