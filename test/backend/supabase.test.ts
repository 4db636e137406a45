import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imagePolicy } from '../../server/backend/image-policy.ts';
import { boundedFetch, MAX_ANSWER_BYTES, supabaseBackend } from '../../server/backend/supabase.ts';
import { HANG, json, raw, STALL, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';

let fake: FakeSupabase;
beforeEach(async () => {
  fake = await startFakeSupabase();
});
afterEach(() => fake.close());

describe('the server-side supabase-js client', () => {
  it('starts no timers and keeps nothing running when created', () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    supabaseBackend({
      url: fake.url,
      anonKey: fake.key,
      images: imagePolicy(fake.url, []),
      logoFileName: 'logo.png',
    });
    expect(timers()).toBe(before);
  });

  it('builds the public address of a logo file without a request', () => {
    const calls = supabaseBackend({
      url: fake.url,
      anonKey: fake.key,
      images: imagePolicy(fake.url, []),
      logoFileName: 'logo.png',
    });
    expect(calls.publicLogoUrl('logo 3d.png')).toBe(`${fake.url}/storage/v1/object/public/logo/logo%203d.png`);
    expect(fake.requests).toEqual([]);
  });

  // The cache's deadline is the only timeout: it reaches the request through the call's signal.
  it.each([
    ['a function call that never answers', 'heroImages', HANG],
    ['a function call whose body stalls', 'heroImages', STALL],
    ['a logo listing that never answers', 'logoList', HANG],
    ['a logo listing whose body stalls', 'logoList', STALL],
  ] as const)("ends %s when the call's signal aborts", async (_, route, reply) => {
    const calls = supabaseBackend({
      url: fake.url,
      anonKey: fake.key,
      images: imagePolicy(fake.url, []),
      logoFileName: 'logo.png',
    });
    fake.reply[route] = reply;
    const call = route === 'heroImages' ? calls.heroSlides : calls.logoUrl;
    const signal = new AbortController();
    const ended = expect(call(signal.signal)).rejects.toThrow();
    // Aborted once the backend holds the call (on a busy machine a timer started with the call
    // could run out before the request even arrived), and a moment later, when a body has stalled.
    await fake.received(route, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const aborted = performance.now();
    signal.abort();
    await ended;
    expect(performance.now() - aborted).toBeLessThan(1000);
    expect(fake.calls[route]).toBe(1);
  });
});

describe('boundedFetch', () => {
  const url = () => `${fake.url}/functions/v1/hero-images`;
  const init = () => ({ method: 'POST', headers: { apikey: fake.key } });

  it("ends a body that stalls after the headers when the call's signal aborts", async () => {
    fake.reply.heroImages = STALL;
    const started = performance.now();
    await expect(
      boundedFetch(MAX_ANSWER_BYTES)(url(), { ...init(), signal: AbortSignal.timeout(200) }),
    ).rejects.toThrow(/timeout|aborted/i);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a body over the limit, with or without Content-Length', async () => {
    for (const withoutLength of [false, true]) {
      fake.reply.heroImages = raw('x'.repeat(2000), { withoutLength });
      await expect(boundedFetch(1000)(url(), init())).rejects.toThrow('the answer is larger than 1000 bytes');
    }
  });

  it('hands on the whole answer otherwise', async () => {
    fake.reply.heroImages = json({ heroSlides: [] }, { status: 201 });
    const response = await boundedFetch(MAX_ANSWER_BYTES)(url(), init());
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ heroSlides: [] });
  });
});

describe('imagePolicy', () => {
  it('allows https on the backend host and the listed hosts, http only on a loopback backend', () => {
    const hosted = imagePolicy('https://abc.supabase.co', ['images.example.com']);
    expect(hosted.allows('https://abc.supabase.co/storage/v1/object/public/hero/a.jpg')).toBe(true);
    expect(hosted.allows('https://images.example.com/a.jpg')).toBe(true);
    expect(hosted.allows('http://abc.supabase.co/a.jpg')).toBe(false);
    expect(hosted.allows('https://abc.supabase.co.evil.example/a.jpg')).toBe(false);
    expect(hosted.allows('https://evil.example/?https://abc.supabase.co/')).toBe(false);
    expect(hosted.origins).toEqual(['https://abc.supabase.co', 'https://images.example.com']);

    const local = imagePolicy('http://127.0.0.1:54321', []);
    expect(local.allows('http://127.0.0.1:54321/storage/v1/object/public/hero/a.jpg')).toBe(true);
    expect(local.allows('http://127.0.0.1:8080/a.jpg')).toBe(false);
  });
});
