import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../scripts/harness/content-coding.ts';
import { rawGet, testApp } from '../helpers/app.ts';
import { changeableLive, LIVE_START } from '../helpers/live.ts';
import { liveEntityTag } from '../../server/live/live-version.ts';

/**
 * GET /api/live: the live state as a small JSON document with its version and a strong ETag,
 * 304 while nothing changed, a lifetime of its own, behind the same headers, metrics and log.
 */
const POSTPONED = {
  notice: { level: 'warning' as const, text: { de: 'Verschoben <b>!</b>', en: 'Postponed' } },
  status: 'EventPostponed' as const,
  schedule: null,
};

describe('GET /api/live', () => {
  it('answers the live state with its version and the time it changed', async () => {
    const live = changeableLive(POSTPONED);
    const { app } = await testApp({ liveSource: live });
    const res = await request(app).get('/api/live').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({
      version: (await live.get()).version,
      updated: LIVE_START.toISOString(),
      ...POSTPONED,
      stream: null,
      recording: null,
    });
    // Escaped as for a <script> element: a notice's markup is never markup.
    expect(res.text).toContain('Verschoben \\u003cb\\u003e!\\u003c/b\\u003e');
    live.set({ notice: null, status: null, schedule: null });
    expect((await request(app).get('/api/live')).body).toEqual({
      version: (await live.get()).version,
      updated: new Date(LIVE_START.getTime() + 1000).toISOString(),
      notice: null,
      status: null,
      schedule: null,
      stream: null,
      recording: null,
    });
  });

  it('has a strong ETag per coding, the same for the same state and time, and answers 304 while nothing changed', async () => {
    const live = changeableLive(POSTPONED);
    const { app } = await testApp({ liveSource: live });
    const state = await live.get();
    const tag = liveEntityTag(state);
    expect(tag).toBe(`${state.version}.${LIVE_START.getTime().toString(36)}`);
    const identity = await rawGet(app, '/api/live', { 'Accept-Encoding': 'identity' });
    expect(identity.headers.etag).toBe(`"${tag}"`);
    const brotli = await rawGet(app, '/api/live', { 'Accept-Encoding': 'br, gzip' });
    expect(brotli.headers.etag).toBe(`"${tag}-br"`);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decodeBody(brotli.body, 'br').toString())).toEqual(state);
    const gzip = await rawGet(app, '/api/live', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers.etag).toBe(`"${tag}-gzip"`);
    // No later step compresses the identity body under its strong tag.
    const deflateOnly = await rawGet(app, '/api/live', { 'Accept-Encoding': 'deflate' });
    expect(deflateOnly.headers['content-encoding']).toBeUndefined();
    expect(deflateOnly.body.equals(identity.body)).toBe(true);

    const again = await request(app).get('/api/live').set('Accept-Encoding', 'br').set('If-None-Match', `"${tag}-br"`);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(`"${tag}-br"`);
    expect(again.headers['cache-control']).toBe('public, max-age=5, stale-if-error=86400');

    live.set({ ...POSTPONED, status: 'EventCancelled' });
    const changed = await request(app)
      .get('/api/live')
      .set('Accept-Encoding', 'br')
      .set('If-None-Match', `"${tag}-br"`);
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('EventCancelled');
    // Another replica with the same state read at the same time names it alike; read at another
    // time (its own copy of the file), its body says another time, and its tag differs.
    const sameTime = changeableLive(POSTPONED);
    sameTime.set({ ...POSTPONED, status: 'EventCancelled' });
    const other = await testApp({ liveSource: sameTime });
    expect((await request(other.app).get('/api/live').set('Accept-Encoding', 'br')).headers.etag).toBe(
      changed.headers.etag,
    );
    const otherTime = await testApp({ liveSource: changeableLive({ ...POSTPONED, status: 'EventCancelled' }) });
    const otherAnswer = await request(otherTime.app).get('/api/live').set('Accept-Encoding', 'br');
    expect(otherAnswer.body.version).toBe(changed.body.version);
    expect(otherAnswer.headers.etag).not.toBe(changed.headers.etag);
  });

  it('may be kept for LIVE_EDGE_SECONDS, never served stale while revalidating, and may stand in while the server fails', async () => {
    const { app } = await testApp(
      { liveSource: changeableLive() },
      { NODE_ENV: 'test', LIVE_EDGE_SECONDS: '2', CACHE_STALE_SECONDS: '600' },
    );
    const res = await request(app).get('/api/live').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=2, stale-if-error=600');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('carries the security headers, is counted under its route and logged like every answer', async () => {
    const { app, deps, logLines } = await testApp({ liveSource: changeableLive() });
    const res = await request(app).get('/api/live').set('X-Request-Id', 'live-1').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeDefined();
    const metrics = await deps.metrics.registry.getSingleMetricAsString('http_requests_total');
    expect(metrics).toContain('http_requests_total{route="/api/live",status="200"} 1');
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: 'request completed', path: '/api/live', status: 200, requestId: 'live-1' }),
    );
  });

  it('refuses other methods', async () => {
    const { app } = await testApp({ liveSource: changeableLive() });
    const res = await request(app).post('/api/live').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});
