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
