import { once } from 'node:events';
import { createServer, request as httpRequest, type RequestListener } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { keptPagesFirst, type KeptPagePathDeps } from '../../server/kept-page-path.ts';
import { embeddedHeroSource } from '../../server/hero/from-content.ts';
import type { HeroSource } from '../../server/hero/hero-source.ts';
import { fixedLiveSource } from '../../server/live/fixed-source.ts';
import { createReadiness } from '../../server/ops/health.ts';
import { createMetrics, type Metrics } from '../../server/ops/metrics.ts';
import { pageAnswers } from '../../server/pages/page-handler.ts';
import { testApp } from '../helpers/app.ts';
import { onTheWire } from '../helpers/raw-http.ts';

/** One answer as it came over the wire: status, headers in their order, body not decoded. */
interface WireAnswer {
  status: number;
  /** Names (lower case) and values, in the order sent. */
  headers: [string, string][];
  body: Buffer;
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(listener: RequestListener): Promise<number> {
  const server = createServer(listener).listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

function ask(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          headers.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
      });
    })
      .on('error', reject)
      .end();
  });
}

/** The headers that differ between any two answers whatever path they took. */
const perAnswer = (headers: [string, string][], keepRequestId: boolean) =>
  headers.filter(([name]) => name !== 'date' && (keepRequestId || name !== 'x-request-id'));

/** A log line without what differs between any two requests. */
const lineShape = ({
  requestId: _id,
  durationMs: _ms,
  time: _time,
  pid: _pid,
  hostname: _host,
  ...rest
}: Record<string, unknown>) => rest;

/** The requests the matrix asks for: every page variant, coding choice, revalidation and method. */
function matrix(etagOf: (path: string, cookie: string) => string | undefined) {
  const asks: { path: string; method: string; headers: Record<string, string> }[] = [];
  for (const path of ['/', '/impressum'])
    for (const cookie of ['', 'selectedLanguage=en', 'selectedLanguage=de', 'selectedLanguage=xx'])
      for (const encoding of [
        'br, gzip',
        'gzip',
        'gzip;q=0.5, br;q=0.4',
        '',
        'identity',
        'deflate',
        'br;q=0, gzip;q=0',
      ])
        for (const method of ['GET', 'HEAD']) {
          const headers: Record<string, string> = {};
          if (cookie) headers.Cookie = cookie;
          if (encoding) headers['Accept-Encoding'] = encoding;
          asks.push({ path, method, headers });
        }
  for (const path of ['/', '/impressum'])
    for (const cookie of ['', 'selectedLanguage=en']) {
      const etag = etagOf(path, cookie);
      asks.push({
        path,
        method: 'GET',
        headers: { Cookie: cookie, 'If-None-Match': etag!, 'Accept-Encoding': 'gzip' },
      });
      asks.push({
        path,
        method: 'GET',
        headers: { Cookie: cookie, 'If-None-Match': 'W/"other"', 'Accept-Encoding': 'gzip' },
      });
    }
  asks.push({ path: '/', method: 'GET', headers: { 'X-Request-Id': 'from-the-balancer-1', 'Accept-Encoding': 'br' } });
  return asks;
}

describe('the kept-page path', () => {
  it('answers every kept page request as Express does: status, headers in order, body, log line and metrics', async () => {
    // One clock for both, so that the countdown and the edge lifetime cannot differ between them.
    const now = () => Date.parse('2027-03-01T08:00:00.250Z');
    const kept = await testApp({ now });
    const plain = await testApp({ now, keptPagePath: false });
    const [keptPort, plainPort] = await Promise.all([serve(kept.app), serve(plain.app)]);

    // Each variant rendered once, through Express on both, so that the kept path has its pages.
    const etags = new Map<string, string>();
    for (const path of ['/', '/impressum'])
      for (const cookie of ['', 'selectedLanguage=en', 'selectedLanguage=de', 'selectedLanguage=xx']) {
        const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
        const first = await ask(keptPort, path, headers);
        await ask(plainPort, path, headers);
        etags.set(`${path}|${cookie}`, first.headers.find(([name]) => name === 'etag')![1]);
      }

    const asks = matrix((path, cookie) => etags.get(`${path}|${cookie}`));
    for (const { path, method, headers } of asks) {
      const what = `${method} ${path} ${JSON.stringify(headers)}`;
      const fromKept = await ask(keptPort, path, headers, method);
      const fromPlain = await ask(plainPort, path, headers, method);
      expect(fromKept.status, what).toBe(fromPlain.status);
      const keepRequestId = 'X-Request-Id' in headers;
      expect(perAnswer(fromKept.headers, keepRequestId), what).toEqual(perAnswer(fromPlain.headers, keepRequestId));
      expect(fromKept.body.equals(fromPlain.body), what).toBe(true);
      expect(lineShape(kept.logLines.at(-1)!), what).toEqual(lineShape(plain.logLines.at(-1)!));
    }
    expect(kept.logLines).toHaveLength(plain.logLines.length);
    // A generated request id is one, echoed and logged alike.
    const last = await ask(keptPort, '/', { 'Accept-Encoding': 'gzip' });
    expect(last.headers.find(([name]) => name === 'x-request-id')![1]).toBe(kept.logLines.at(-1)!.requestId);

    const counted = async (metrics: Metrics) =>
      (await metrics.registry.getSingleMetric('http_requests_total')!.get()).values.map(({ labels, value }) => ({
        labels,
        value,
      }));
    const keptCounts = await counted(kept.deps.metrics);
    const plainCounts = await counted(plain.deps.metrics);
    // The request just above, once more on the kept app.
    const landing200 = (counts: typeof keptCounts) =>
      counts.find((c) => c.labels.route === '/' && c.labels.status === '200')!;
    expect(landing200(keptCounts).value).toBe(landing200(plainCounts).value + 1);
    landing200(keptCounts).value -= 1;
    expect(keptCounts).toEqual(plainCounts);
  });

  it("puts Express's bytes on the wire for a kept page asked again on one connection", async () => {
    const now = () => Date.parse('2027-03-01T08:00:00.250Z');
    const kept = await testApp({ now });
    const plain = await testApp({ now, keptPagePath: false });
    const [keptPort, plainPort] = await Promise.all([serve(kept.app), serve(plain.app)]);
    const gzip = 'Accept-Encoding: gzip\r\nCookie: selectedLanguage=en\r\n';
    const render = [`GET / HTTP/1.1\r\nHost: x\r\n${gzip}Connection: close\r\n\r\n`];
    await Promise.all([onTheWire(keptPort, render), onTheWire(plainPort, render)]);
    const etag = (await ask(keptPort, '/', { Cookie: 'selectedLanguage=en' })).headers.find(
      ([name]) => name === 'etag',
    )![1];

    const asked = [
      `GET / HTTP/1.1\r\nHost: x\r\n${gzip}\r\n`,
      `GET / HTTP/1.1\r\nHost: x\r\n${gzip}\r\n`,
      `HEAD / HTTP/1.1\r\nHost: x\r\n${gzip}\r\n`,
      `HEAD / HTTP/1.1\r\nHost: x\r\n${gzip}\r\n`,
      `GET / HTTP/1.1\r\nHost: x\r\n${gzip}If-None-Match: ${etag}\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: x\r\n${gzip}If-None-Match: ${etag}\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: x\r\n${gzip}\r\n`,
      `GET / HTTP/1.1\r\nHost: x\r\n${gzip}Connection: close\r\n\r\n`,
    ];
    const fromKept = await onTheWire(keptPort, asked);
    const fromPlain = await onTheWire(plainPort, asked);
    const perConnection = (wire: string) =>
      wire
        .replace(/\r\nDate: [^\r]*\r\n/g, '\r\nDate: …\r\n')
        .replace(/\r\nX-Request-Id: [^\r]*\r\n/g, '\r\nX-Request-Id: …\r\n');
    expect(perConnection(fromKept)).toBe(perConnection(fromPlain));
    expect(fromKept.match(/HTTP\/1\.1 (200|304)/g)).toHaveLength(asked.length);
    const ids = [...fromKept.matchAll(/\r\nX-Request-Id: ([^\r]*)\r\n/g)].map((match) => match[1]);
    expect(ids).toEqual(kept.logLines.slice(-asked.length).map((line) => line.requestId));
    expect(new Set(ids).size).toBe(asked.length);
  });

  it('logs the client address Express would, through the trusted proxies only', async () => {
    const env = { NODE_ENV: 'test', TRUST_PROXY: 'loopback' };
    const kept = await testApp({}, env);
    const plain = await testApp({ keptPagePath: false }, env);
    const [keptPort, plainPort] = await Promise.all([serve(kept.app), serve(plain.app)]);
    for (const forwarded of ['203.0.113.9', '198.51.100.7, 203.0.113.9', '']) {
      const headers: Record<string, string> = { 'Accept-Encoding': 'gzip' };
      if (forwarded) headers['X-Forwarded-For'] = forwarded;
      // Twice each: the first renders through Express on both.
      for (let i = 0; i < 2; i++) {
        await ask(keptPort, '/', headers);
        await ask(plainPort, '/', headers);
        expect(kept.logLines.at(-1)!.ip, forwarded).toBe(plain.logLines.at(-1)!.ip);
      }
    }
    expect(kept.logLines.at(-1)!.ip).toBe('127.0.0.1');
    expect(kept.logLines.at(-3)!.ip).toBe('203.0.113.9');
  });

  describe('in front of a counting Express app', () => {
    async function setUp(heroSource?: HeroSource) {
      const { deps } = await testApp();
      const lines: Record<string, unknown>[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split('\n').filter(Boolean))
              lines.push(JSON.parse(line) as Record<string, unknown>);
            done();
          },
        }),
      );
      const pages = pageAnswers({
        ...deps,
        logger,
        heroSource: heroSource ?? embeddedHeroSource(deps.content),
        liveSource: fixedLiveSource(),
      });
      const app = express();
      app.get(['/', '/impressum'], pages.handle);
      let passedExpress = 0;
      const readiness = createReadiness();
      const metrics = createMetrics();
      const keptDeps: KeptPagePathDeps = {
        pages,
        logger,
        metrics,
        readiness,
        fixed: { set: [['X-Content-Type-Options', 'nosniff']], removed: [] },
        clientAddress: (req) => req.socket.remoteAddress,
      };
      const port = await serve(
        keptPagesFirst((req, res) => {
          passedExpress += 1;
          app(req, res);
        }, keptDeps),
      );
      return { port, readiness, lines, metrics, passed: () => passedExpress };
    }

    it('takes a page that is kept, and hands Express the rest as it came', async () => {
      const { port, readiness, passed } = await setUp();
      const gzip = { 'Accept-Encoding': 'gzip', Cookie: 'selectedLanguage=en' };
      const rendered = await ask(port, '/', gzip);
      expect(passed(), 'the first asks for a render').toBe(1);
      const fromKept = await ask(port, '/', gzip);
      await ask(port, '/', gzip, 'HEAD');
      expect(passed(), 'kept: no pass through Express').toBe(1);
      expect(fromKept.body.equals(rendered.body)).toBe(true);
      expect(fromKept.headers.map(([name]) => name)).toContain('x-content-type-options');

      await ask(port, '/impressum', gzip);
      expect(passed(), 'a page not kept yet').toBe(2);
      for (const other of ['/?lng=de', '/?utm_source=mail', '/impressum/', '/IMPRESSUM']) await ask(port, other, gzip);
      expect(passed(), 'a query, another spelling of the path').toBe(6);
      await ask(port, '/impressum', gzip);
      expect(passed(), 'kept now').toBe(6);
      await ask(port, '/', gzip, 'POST');
      expect(passed()).toBe(7);

      readiness.drain();
      const whileDraining = await ask(port, '/', gzip);
      expect(passed(), 'while shutting down, Express closes the connection').toBe(8);
      expect(whileDraining.status).toBe(200);
    });

    it('answers, logs and counts each of the requests pipelined on one connection', async () => {
      const { port, lines, metrics } = await setUp();
      await ask(port, '/', { 'Accept-Encoding': 'gzip' });

      // Pipelined in one write: read in one turn. Each answer but the first waits for the one before
      // (it is logged once it has gone out); all are logged and counted.
      const asks = 10;
      const socket = connect(port, '127.0.0.1');
      const wire: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => wire.push(chunk));
      for (let i = 0; i < asks; i++)
        socket.write(
          `GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n${i === asks - 1 ? 'Connection: close\r\n' : ''}\r\n`,
        );
      await once(socket, 'close');
      const answers =
        Buffer.concat(wire)
          .toString('latin1')
          .match(/HTTP\/1\.1 200 OK\r\n/g) ?? [];
      expect(answers).toHaveLength(asks);
      // The first request rendered through the bare Express app here, which neither logs nor counts.
      const logged = lines.map(({ msg, status }) => ({ msg, status }));
      expect(logged).toEqual(Array.from({ length: asks }, () => ({ msg: 'request completed', status: 200 })));
      const ids = lines.map(({ requestId }) => requestId);
      expect(new Set(ids).size, 'a request id each').toBe(asks);
      const counts = (await metrics.registry.getSingleMetric('http_requests_total')!.get()).values;
      expect(counts.map(({ labels, value }) => ({ labels, value }))).toEqual([
        { labels: { route: '/', status: '200' }, value: asks },
      ]);
    });

    it('logs and counts a visitor who leaves while the page waits for its data, and sends nothing', async () => {
      let release: () => void = () => {};
      let held = false;
      const { deps } = await testApp();
      const content = embeddedHeroSource(deps.content);
      const heroSource: HeroSource = {
        ...content,
        get: () =>
          held
            ? new Promise((resolve) => {
                release = () => resolve(content.get());
              })
            : content.get(),
      };
      const { port, lines, metrics, passed } = await setUp(heroSource);
      await ask(port, '/', { 'Accept-Encoding': 'gzip' });
      held = true;
      const leaving = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { 'Accept-Encoding': 'gzip' } });
      leaving.on('error', () => {});
      leaving.end();
      await new Promise((resolve) => setTimeout(resolve, 100));
      leaving.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await new Promise((resolve) => setTimeout(resolve, 100));

      // The first request rendered through the bare Express app here, which neither logs nor counts.
      expect(passed()).toBe(1);
      expect(lines.map(({ msg, path, status }) => ({ msg, path, status }))).toEqual([
        { msg: 'request aborted', path: '/', status: 200 },
      ]);
      const counts = (await metrics.registry.getSingleMetric('http_requests_total')!.get()).values;
      expect(counts.map(({ labels, value }) => ({ labels, value }))).toEqual([
        { labels: { route: '/', status: '200' }, value: 1 },
      ]);
    });
  });
});
