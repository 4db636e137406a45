import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerNormally, backendApp, type BackendAppOptions } from '../helpers/backend.ts';
import { failure, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';

/**
 * What any cache in front (Varnish, nginx, a CDN, a browser) computes from an /api answer,
 * per RFC 9111 4.2.3, must agree with what the server's own cache has left: the answer is
 * never kept longer than the server keeps it, and not much shorter either.
 */

const FRESH = 20;
const STALE = 3600;
/** What a cache may lose to whole seconds: max-age rounded down, and Date's one-second grain. */
const GRAIN = 2.5;

let fake: FakeSupabase;
beforeEach(async () => {
  fake = await startFakeSupabase();
  answerNormally(fake);
});
afterEach(() => fake.close());

interface Received {
  headers: Record<string, string>;
  /** Seconds since the epoch, on the cache's own clock. */
  requestTime: number;
  responseTime: number;
}

/** RFC 9111 4.2.3, as a cache computes it when it receives the answer. */
function currentAge({ headers, requestTime, responseTime }: Received): number {
  const ageValue = Number(headers.age ?? 0);
  const dateValue = Date.parse(headers.date!) / 1000;
  const apparentAge = Math.max(0, responseTime - dateValue);
  const responseDelay = responseTime - requestTime;
  const correctedAgeValue = ageValue + responseDelay;
  return Math.max(apparentAge, correctedAgeValue);
}

function directive(headers: Record<string, string>, name: string): number {
  const match = new RegExp(`(?:^|,)\\s*${name}=(\\d+)`).exec(headers['cache-control'] ?? '');
  if (!match) throw new Error(`no ${name} in ${headers['cache-control']}`);
  return Number(match[1]);
}

/** freshness_lifetime − current_age: what the cache has left, in seconds (negative once stale). */
const remainingFreshness = (answer: Received) => directive(answer.headers, 'max-age') - currentAge(answer);
/** When, counted from now, the cache may no longer serve it stale while revalidating, or for a failing server. */
const staleWhileRevalidateEnds = (answer: Received) =>
  remainingFreshness(answer) + directive(answer.headers, 'stale-while-revalidate');
const staleIfErrorEnds = (answer: Received) => remainingFreshness(answer) + directive(answer.headers, 'stale-if-error');

async function appAt(options: BackendAppOptions = {}) {
  const built = await backendApp(fake, {
    ...options,
    env: { CACHE_FRESH_SECONDS: String(FRESH), CACHE_STALE_SECONDS: String(STALE), ...options.env },
  });
  const get = async (): Promise<Received> => {
    const requestTime = Date.now() / 1000;
    const res = await request(built.app).get('/api/hero-slides').expect(200);
    return { headers: res.headers as Record<string, string>, requestTime, responseTime: Date.now() / 1000 };
  };
  return { ...built, get };
}

/** Expects `actual` to end where the server's own window ends, `expected` seconds from now, never later. */
function expectSameEnd(actual: number, expected: number) {
  expect(actual).toBeLessThanOrEqual(expected);
  expect(actual).toBeGreaterThan(expected - GRAIN);
}

describe("an /api answer's freshness, as every cache computes it (RFC 9111 4.2.3)", () => {
  it.each([0, 1.5, 5, 12, 19.5])('fresh, %s s after the backend answered: what the server has left', async (age) => {
    const { clock, get } = await appAt();
    await get();
    clock.advance(age);
    const answer = await get();
    expect(answer.headers.age).toBeUndefined();
    expect(answer.headers['cache-status']).toBe(`landing; hit; ttl=${Math.floor(FRESH - age)}`);
    expectSameEnd(remainingFreshness(answer), FRESH - age);
    expectSameEnd(staleWhileRevalidateEnds(answer), 2 * FRESH - age);
    expectSameEnd(staleIfErrorEnds(answer), FRESH + STALE - age);
  });

  it.each([20, 25.5, 39])(
    'stale, %s s after, served while one refresh runs: stale at once, the same windows',
    async (age) => {
      const { clock, get } = await appAt();
      await get();
      clock.advance(age);
      const release = fake.hold('heroImages');
      try {
        const answer = await get();
        expect(answer.headers['cache-status']).toBe(`landing; hit; ttl=${Math.floor(FRESH - age)}`);
        expect(directive(answer.headers, 'max-age')).toBe(0);
        expect(remainingFreshness(answer)).toBeLessThanOrEqual(0);
        expectSameEnd(staleWhileRevalidateEnds(answer), 2 * FRESH - age);
        expectSameEnd(staleIfErrorEnds(answer), FRESH + STALE - age);
      } finally {
        release();
      }
    },
  );

  it.each([45, 600, 3500])(
    'stale, %s s after, standing in for a failing backend: max-age=0 inside the window the server serves it in',
    async (age) => {
      const { clock, get } = await appAt();
      await get();
      fake.reply.heroImages = failure(500);
      clock.advance(age);
      const answer = await get();
      expect(answer.headers['cache-status']).toBe(`landing; hit; ttl=${Math.floor(FRESH - age)}`);
      expect(directive(answer.headers, 'max-age')).toBe(0);
      expect(directive(answer.headers, 'stale-while-revalidate')).toBeGreaterThan(0);
      expectSameEnd(staleWhileRevalidateEnds(answer), FRESH + STALE - age);
      expectSameEnd(staleIfErrorEnds(answer), FRESH + STALE - age);
    },
  );

  it('a fallback may not be kept at all', async () => {
    fake.reply.heroImages = failure(503);
    const { get } = await appAt();
    const answer = await get();
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers.age).toBeUndefined();
    expect(answer.headers['cache-status']).toBe('landing; fwd=miss; fwd-status=503; detail=fallback');
  });
});
