import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { logAnswer } from '../../server/ops/request-log.ts';
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
  /** A logger like the server's (server/ops/logger.ts) writing into `lines`. */
  const loggerInto = (lines: string[], level = 'info') =>
    pino(
      { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
      { write: (line: string) => void lines.push(line) },
    );
  const answered = (method: string, status: number) =>
    ({ req: { method } as IncomingMessage, res: { statusCode: status } as ServerResponse }) as const;

  it('is byte for byte the line pino writes for the same fields, at info, or at error for a 5xx', () => {
    vi.useFakeTimers({ now: Date.parse('2027-03-01T08:00:00.250Z') });
    try {
      const cases = [
        { method: 'GET', status: 200, path: '/', ip: '127.0.0.1', requestId: 'abc', completed: true },
        { method: 'HEAD', status: 304, path: '/impressum', ip: undefined, requestId: 'x-1', completed: true },
        { method: 'GET', status: 503, path: '/a"b\\c\n\u0001ü€\u2028', ip: '"::1"', requestId: 'r', completed: false },
        {
          method: 'GET',
          status: 200,
          path: `/${'a'.repeat(2000)}`,
          ip: '10.0.0.1',
          requestId: 'long',
          completed: true,
        },
      ];
      for (const logger of [
        (lines: string[]) => loggerInto(lines),
        (lines: string[]) => loggerInto(lines).child({ worker: 2 }),
      ]) {
        for (const { method, status, path, ip, requestId, completed } of cases) {
          const ours: string[] = [];
          const pinos: string[] = [];
          const { req, res } = answered(method, status);
          logAnswer(logger(ours), req, res, { requestId, path, ip, startedMs: 0 }, 12.4, completed);
          logger(pinos)[status >= 500 ? 'error' : 'info'](
            { requestId, method, path: path.slice(0, 1024), status, durationMs: 12, ip },
            completed ? 'request completed' : 'request aborted',
          );
          expect(ours, path).toEqual(pinos);
        }
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows the logger's level: nothing below it", () => {
    const lines: string[] = [];
    const logAt = (level: string, status: number) => {
      const { req, res } = answered('GET', status);
      logAnswer(
        loggerInto(lines, level),
        req,
        res,
        { requestId: 'a', path: '/', ip: undefined, startedMs: 0 },
        1,
        true,
      );
    };
    logAt('warn', 200);
    expect(lines).toEqual([]);
    logAt('warn', 500);
    expect(lines).toHaveLength(1);
    logAt('silent', 500);
    expect(lines).toHaveLength(1);
  });
});
