/** The figures npm run bench:lighthouse reads out of one Lighthouse JSON report. */

export interface LighthouseReport {
  categories: Record<'performance' | 'accessibility' | 'best-practices' | 'seo', { score: number }>;
  audits: Record<string, { numericValue?: number; details?: { type: string; items?: unknown[] } }>;
  environment: { benchmarkIndex: number };
  requestedUrl: string;
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
  transferSize?: number;
  /** ms since the navigation started */
  networkEndTime?: number;
}

export function lighthouseFigures(report: LighthouseReport): RunFigures {
  const audit = (id: string) => report.audits[id]?.numericValue ?? NaN;
  const items = <T>(id: string) => (report.audits[id]?.details?.items ?? []) as T[];
  const score = (category: keyof LighthouseReport['categories']) => Math.round(report.categories[category].score * 100);
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
