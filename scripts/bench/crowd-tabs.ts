import http from 'node:http';
import type { LiveAnswer } from '../../shared/api.ts';
import { decodeBody } from '../harness/content-coding.ts';

export interface TabsOptions {
  /** Where the tabs poll: /api/live through the edge. */
  url: string;
  tabs: number;
  /** The longest wait between two polls of a tab; each wait is this times a random [0.5, 1]. */
  pollSeconds: number;
  /** Connections the tabs share, as a pool of keep-alive connections (browsers hold one each). */
  connections: number;
}

export interface TabsFigures {
  requests: number;
  ok: number;
  notModified: number;
  /** Answers with another status, and requests that got no answer. */
  unexpected: number;
  errors: number;
  /** The first few unexpected answers or errors, for the report. */
  problems: string[];
  /** For each tab, when it first got `version` (ms since the epoch), or null. */
  firstSeen: (number | null)[];
}

export interface Tabs {
  /** Notes that the live state `version` is the one to wait for; tabs record when they first get it. */
  expect(version: string): void;
  /** Stops polling and waits for the requests in flight. */
  stop(): Promise<TabsFigures>;
}

interface Tab {
  etag?: string;
  version?: string;
  timer?: NodeJS.Timeout;
}

/**
 * Open pages polling /api/live: each tab asks every pollSeconds × [0.5, 1] (its first time at a
 * random moment within one interval), as a browser's fetch with `cache: 'no-cache'` does: with
 * the ETag it last got as If-None-Match, so an unchanged state is a 304 without a body.
 */
export function startTabs(options: TabsOptions): Tabs {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const figures: TabsFigures = {
    requests: 0,
    ok: 0,
    notModified: 0,
    unexpected: 0,
    errors: 0,
    problems: [],
    firstSeen: new Array<number | null>(options.tabs).fill(null),
  };
  let expected: string | undefined;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const problem = (text: string) => {
    if (figures.problems.length < 5) figures.problems.push(text);
  };

  const poll = (index: number, tab: Tab) => {
    if (stopped) return;
    figures.requests++;
    const asked = askLive(options.url, agent, tab.etag)
      .then((answer) => {
        if (answer.status === 304) figures.notModified++;
        else if (answer.status === 200 && answer.live) {
          figures.ok++;
          tab.etag = answer.etag;
          tab.version = answer.live.version;
        } else {
          figures.unexpected++;
          problem(`status ${answer.status}`);
        }
        if (expected !== undefined && tab.version === expected && figures.firstSeen[index] === null)
          figures.firstSeen[index] = Date.now();
      })
      .catch((error: Error) => {
        figures.errors++;
        problem(error.message);
      })
      .finally(() => {
        inFlight.delete(asked);
        schedule(index, tab, options.pollSeconds * 1000 * (0.5 + Math.random() / 2));
      });
    inFlight.add(asked);
  };
  const schedule = (index: number, tab: Tab, delayMs: number) => {
    if (!stopped) tab.timer = setTimeout(() => poll(index, tab), delayMs);
  };

  const tabs: Tab[] = Array.from({ length: options.tabs }, () => ({}));
  tabs.forEach((tab, index) => schedule(index, tab, Math.random() * options.pollSeconds * 1000));

  return {
    expect(version) {
      expected = version;
    },
    async stop() {
      stopped = true;
      for (const tab of tabs) clearTimeout(tab.timer);
      await Promise.all(inFlight);
      agent.destroy();
      return figures;
    },
  };
}

interface LiveReply {
  status: number;
  etag?: string;
  live?: LiveAnswer;
}

/**
 * One poll. A kept connection the edge closed as idle (Varnish after 5 s) just as it was reused
 * is tried again once on a new one, as browsers do for a GET.
 */
function askLive(url: string, agent: http.Agent, etag: string | undefined, retried = false): Promise<LiveReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
    if (etag) headers['if-none-match'] = etag;
    const req = http.get(url, { agent, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status !== 200) return resolve({ status });
        const body = decodeBody(Buffer.concat(chunks), res.headers['content-encoding']);
        resolve({ status, etag: res.headers.etag, live: JSON.parse(body.toString()) as LiveAnswer });
      });
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(askLive(url, agent, etag, true));
      else reject(error);
    });
  });
}
