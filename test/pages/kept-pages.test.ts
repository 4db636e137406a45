import { once } from 'node:events';
import { createServer, request as httpRequest, type RequestListener } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedHeroSource } from '../../server/hero/from-content.ts';
import type { HeroSource } from '../../server/hero/hero-source.ts';
import type { Metrics } from '../../server/ops/metrics.ts';
import { countingTranslations, rawGet, testApp } from '../helpers/app.ts';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(app: RequestListener): Promise<number> {
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const countsOf = async (metrics: Metrics) =>
  (await metrics.registry.getSingleMetric('http_requests_total')!.get()).values.map(({ labels, value }) => ({
    labels,
    value,
  }));

/** The headers that differ between any two answers of the same page. */
const perAnswer = (headers: Record<string, string | string[] | undefined>) => {
  const { date: _date, 'x-request-id': _id, ...rest } = headers;
  return rest;
};

describe('a kept page', () => {
  it('is sent as it was rendered, headers and bytes, without a render, for GET, HEAD and a 304', async () => {
    const translations = await countingTranslations();
    const now = () => Date.parse('2027-03-01T08:00:00.250Z');
    const { app, logLines } = await testApp({ translations, now });
    const gzip = { 'Accept-Encoding': 'gzip', Cookie: 'selectedLanguage=en' };
    for (const path of ['/', '/impressum']) {
      const rendered = await rawGet(app, path, gzip);
      const renders = translations.renders;
      const kept = await rawGet(app, path, gzip);
      expect(translations.renders, path).toBe(renders);
      expect(kept.status).toBe(200);
      expect(perAnswer(kept.headers)).toEqual(perAnswer(rendered.headers));
      expect(kept.body.equals(rendered.body)).toBe(true);
      expect(kept.headers['content-security-policy']).toBeTruthy();
      expect(kept.headers['x-request-id']).toBe(logLines.at(-1)!.requestId);

      const notModified = await rawGet(app, path, { ...gzip, 'If-None-Match': String(rendered.headers.etag) });
      expect(notModified.status).toBe(304);
      expect(notModified.body).toHaveLength(0);
      expect(translations.renders, path).toBe(renders);
    }
    expect(logLines.filter((line) => line.msg === 'request completed')).toHaveLength(6);
  });

  it('is answered, logged and counted for each of the requests pipelined on one connection', async () => {
    const { app, deps, logLines } = await testApp();
    const port = await serve(app);
    await rawGet(app, '/', { 'Accept-Encoding': 'gzip' });
    const before = logLines.length;

    const asks = 10;
    const socket = connect(port, '127.0.0.1');
    let wire = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (wire += chunk));
    for (let i = 0; i < asks; i++)
      socket.write(
        `GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n${i === asks - 1 ? 'Connection: close\r\n' : ''}\r\n`,
      );
    await once(socket, 'close');
    expect(wire.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(asks);
    const lines = logLines.slice(before);
    expect(lines.map(({ msg, status }) => ({ msg, status }))).toEqual(
      Array.from({ length: asks }, () => ({ msg: 'request completed', status: 200 })),
    );
    expect(new Set(lines.map(({ requestId }) => requestId)).size, 'a request id each').toBe(asks);
    expect(await countsOf(deps.metrics)).toContainEqual({ labels: { route: '/', status: '200' }, value: asks + 1 });
  });

  it("logs the client's address through the trusted proxies, as for the render before it", async () => {
    const { app, logLines } = await testApp({}, { NODE_ENV: 'test', TRUST_PROXY: 'loopback' });
    for (const forwarded of ['203.0.113.9', '198.51.100.7, 203.0.113.9']) {
      await rawGet(app, '/impressum', { 'X-Forwarded-For': forwarded });
      await rawGet(app, '/impressum', { 'X-Forwarded-For': forwarded });
    }
    await rawGet(app, '/impressum');
    expect(logLines.filter((line) => line.msg === 'request completed').map((line) => line.ip)).toEqual([
      '203.0.113.9',
      '203.0.113.9',
      '203.0.113.9',
      '203.0.113.9',
      '127.0.0.1',
    ]);
  });

  it('closes its connection once the server is shutting down', async () => {
    const { app, deps } = await testApp();
    await rawGet(app, '/', { 'Accept-Encoding': 'gzip' });
    deps.readiness.drain();
    const kept = await rawGet(app, '/', { 'Accept-Encoding': 'gzip' });
    expect(kept.status).toBe(200);
    expect(kept.headers.connection).toBe('close');
  });

  it('is sent with what its sources hold now, without waiting for them to be asked', async () => {
    const shipped = await testApp();
    const content = embeddedHeroSource(shipped.deps.content);
    let asked = 0;
    const heroSource: HeroSource = {
      ...content,
      // Once the page is kept, asking would never be answered.
      get: () => (asked++ === 0 ? content.get() : new Promise(() => {})),
    };
    const { app } = await testApp({ heroSource });
    await rawGet(app, '/', { 'Accept-Encoding': 'gzip' });
    const kept = await rawGet(app, '/', { 'Accept-Encoding': 'gzip' });
    expect(kept.status).toBe(200);
    expect(asked).toBe(1);
  });

  it('logs and counts a visitor who leaves while the page waits for its data, and sends nothing', async () => {
    let release: () => void = () => {};
    let held = false;
    const shipped = await testApp();
    const content = embeddedHeroSource(shipped.deps.content);
    const heroSource: HeroSource = {
      ...content,
      current: () => (held ? null : content.current()),
      get: () =>
        held
          ? new Promise((resolve) => {
              release = () => resolve(content.get());
            })
          : content.get(),
    };
    const { app, deps, logLines } = await testApp({ heroSource });
    const port = await serve(app);
    await rawGet(app, '/', { 'Accept-Encoding': 'gzip' });
    const before = logLines.length;
    held = true;
    const leaving = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { 'Accept-Encoding': 'gzip' } });
    leaving.on('error', () => {});
    leaving.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(logLines.slice(before).map(({ msg, path, status }) => ({ msg, path, status }))).toEqual([
      { msg: 'request aborted', path: '/', status: 200 },
    ]);
    expect(await countsOf(deps.metrics)).toContainEqual({ labels: { route: '/', status: '200' }, value: 2 });
  });
});
