import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { everyRequest } from '../../server/ops/every-request.ts';
import { createReadiness } from '../../server/ops/health.ts';
import { createMetrics } from '../../server/ops/metrics.ts';
import { testApp } from '../helpers/app.ts';

const accessLines = (lines: Record<string, unknown>[]) => lines.filter((line) => line.msg === 'request completed');

describe('the access log', () => {
  it('writes one JSON line per request with method, path, status, duration and request id', async () => {
    const { app, logLines } = await testApp();
    const res = await request(app).get('/impressum?lng=en').expect(200);
    await request(app).get('/no/such/page').expect(404);
    const [page, missing] = accessLines(logLines);
    expect(accessLines(logLines)).toHaveLength(2);
    expect(page).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/impressum',
      status: 200,
      requestId: res.headers['x-request-id'],
    });
    expect(page!.durationMs).toEqual(expect.any(Number));
    expect(missing).toMatchObject({ method: 'GET', path: '/no/such/page', status: 404 });
  });

  it('generates a request id for each request and echoes it', async () => {
    const { app, logLines } = await testApp();
    const [a, b] = [await request(app).get('/healthz'), await request(app).get('/locales/en/translation.json')];
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    expect(accessLines(logLines)[0]!.requestId).toBe(b.headers['x-request-id']);
  });

  it("keeps the load balancer's request id when it is a plain token", async () => {
    const { app, logLines } = await testApp();
    const id = 'Root-1_abc'.padEnd(128, 'x');
    const res = await request(app).get('/').set('X-Request-Id', id);
    expect(res.headers['x-request-id']).toBe(id);
    expect(accessLines(logLines)[0]!.requestId).toBe(id);
  });

  it.each(['', 'a'.repeat(129), 'abc def', 'x"}{"level":60', '../../etc', 'id;drop', 'ünïcode'])(
    'replaces the inbound request id %j with one of its own',
    async (id) => {
      const { app, logLines } = await testApp();
      const res = await request(app).get('/').set('X-Request-Id', id);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(accessLines(logLines)[0]!.requestId).toBe(res.headers['x-request-id']);
    },
  );

  it('never logs cookies, credentials or the query', async () => {
    const { app, logLines } = await testApp();
    await request(app)
      .get('/?lng=en&token=query-secret')
      .set('Cookie', 'selectedLanguage=en; session=cookie-secret')
      .set('Authorization', 'Bearer header-secret');
    const logged = JSON.stringify(logLines);
    expect(accessLines(logLines)).toHaveLength(1);
    for (const secret of ['cookie-secret', 'header-secret', 'query-secret', 'selectedLanguage'])
      expect(logged).not.toContain(secret);
  });

  it("logs the client's address as the trusted proxy hop reports it", async () => {
    const untrusted = await testApp();
    await request(untrusted.app).get('/healthz?x').set('X-Forwarded-For', '203.0.113.9');
    await request(untrusted.app).get('/').set('X-Forwarded-For', '203.0.113.9');
    expect(accessLines(untrusted.logLines)[0]!.ip).toMatch(/127\.0\.0\.1|::1/);

    const behindOneProxy = await testApp({}, { NODE_ENV: 'test', TRUST_PROXY: '1' });
    await request(behindOneProxy.app).get('/').set('X-Forwarded-For', '198.51.100.1, 203.0.113.9');
    expect(accessLines(behindOneProxy.logLines)[0]!.ip).toBe('203.0.113.9');
  });
});

describe("a request's line", () => {
  /** An app that answers /<status> with that status, its log at `level` written into `lines`. */
  const appLoggingAt = (level: string, lines: Record<string, unknown>[]) => {
    const app = express();
    const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const every = everyRequest({
      logger,
      metrics: createMetrics(),
      readiness: createReadiness(),
      securityHeaders: (_req, _res, next) => next(),
      noindex: false,
      clientAddress: (req) => req.socket.remoteAddress!,
    });
    app.use(every.middleware);
    app.get('/{*splat}', (req, res) => res.status(Number(req.path.slice(1, 4))).send('answer'));
    return app;
  };

  it("is written at info, or at error for a 5xx, and nothing below the logger's level", async () => {
    const atInfo: Record<string, unknown>[] = [];
    await request(appLoggingAt('info', atInfo)).get('/200');
    await request(appLoggingAt('info', atInfo)).get('/503');
    expect(atInfo).toMatchObject([
      { level: 30, status: 200, msg: 'request completed' },
      { level: 50, status: 503, msg: 'request completed' },
    ]);
    const atWarn: Record<string, unknown>[] = [];
    await request(appLoggingAt('warn', atWarn)).get('/200');
    await request(appLoggingAt('warn', atWarn)).get('/500');
    expect(atWarn).toMatchObject([{ level: 50, status: 500 }]);
  });

  it('gives the fields in their order, and cuts a path past 1,024 characters', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingAt('info', lines)).get(`/200${'a'.repeat(2000)}?secret=1`);
    expect(Object.keys(lines[0]!)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'requestId',
      'method',
      'path',
      'status',
      'durationMs',
      'ip',
      'msg',
    ]);
    expect(lines[0]!.path).toBe(`/200${'a'.repeat(1020)}`);
  });
});
