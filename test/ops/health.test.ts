import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { HeroSource } from '../../server/hero/hero-source.ts';
import { testApp } from '../helpers/app.ts';

const failingBackend: HeroSource = {
  get: () => Promise.reject(new Error('backend down')),
  current: () => null,
  heroSlides: () => Promise.reject(new Error('backend down')),
  logo: () => Promise.reject(new Error('backend down')),
};

describe('GET /healthz (liveness)', () => {
  it('answers 200, never cached, without touching the backend', async () => {
    const { app } = await testApp({ heroSource: failingBackend });
    const res = await request(app).get('/healthz').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toBe('ok');
  });

  it('keeps answering 200 while the server shuts down', async () => {
    const { app, deps } = await testApp();
    deps.readiness.drain();
    await request(app).get('/healthz').expect(200);
  });
});

describe('GET /readyz (readiness)', () => {
  it('answers 200 while the server takes work, never cached', async () => {
    const { app } = await testApp({ heroSource: failingBackend });
    const res = await request(app).get('/readyz').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 while start-up work holds it, and 200 once all of it has settled, failed or not', async () => {
    const { app, deps } = await testApp();
    let finish!: () => void;
    let fail!: (error: Error) => void;
    deps.readiness.holdUntil(new Promise<void>((resolve) => (finish = resolve)));
    deps.readiness.holdUntil(new Promise<void>((_resolve, reject) => (fail = reject)));
    const res = await request(app).get('/readyz').expect(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toBe('starting');
    // Pages are served meanwhile, on connections kept alive: only the load balancer waits.
    const page = await request(app).get('/').set('Connection', 'keep-alive').expect(200);
    expect(page.headers.connection).toBe('keep-alive');
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    await request(app).get('/readyz').expect(503);
    fail(new Error('photo storage down'));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await request(app).get('/readyz').expect(200)).text).toBe('ready');
  });

  it('answers 503 for shutdown, not start-up, once shutdown begins', async () => {
    const { app, deps } = await testApp();
    deps.readiness.holdUntil(new Promise(() => {}));
    deps.readiness.drain();
    expect((await request(app).get('/readyz').expect(503)).text).toBe('shutting down');
  });

  it('answers 503 from the moment shutdown begins, and every answer then closes its connection', async () => {
    const { app, deps } = await testApp();
    const keepAlive = (path: string) => request(app).get(path).set('Connection', 'keep-alive');
    expect((await keepAlive('/')).headers.connection).toBe('keep-alive');
    deps.readiness.drain();
    const res = await keepAlive('/readyz').expect(503);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.connection).toBe('close');
    expect((await keepAlive('/')).headers.connection).toBe('close');
  });
});

describe('health probes in the log', () => {
  it('are not logged, while other requests are', async () => {
    const { app, logLines } = await testApp();
    await request(app).get('/healthz');
    await request(app).get('/readyz');
    await request(app).get('/locales/de/translation.json');
    const paths = logLines.filter((line) => line.msg === 'request completed').map((line) => line.path);
    expect(paths).toEqual(['/locales/de/translation.json']);
  });
});
