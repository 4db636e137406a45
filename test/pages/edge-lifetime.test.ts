import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { eventClock, HOUR_MS, MINUTE_MS, PAGE_COUNTDOWN_STEP_MS, SECOND_MS } from '../../shared/event-clock.ts';
import { edgeSeconds } from '../../server/pages/edge-lifetime.ts';
import { testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { eventFieldsAt, moveEvent } from '../helpers/event-times.ts';

const START = Date.UTC(2027, 2, 18, 17, 0);
const END = START + 90 * MINUTE_MS;
const TIMES = { start: START, end: END };
const content = editedContent((file) => moveEvent(file, eventFieldsAt(START, 90)));

async function appAt(time: number, env: NodeJS.ProcessEnv = {}) {
  const { app } = await testApp({ content, now: () => time }, { NODE_ENV: 'test', ...env });
  return app;
}

/** The edge's two headers, and whether nginx reads X-Accel-Expires (it must come before Cache-Control). */
function edgeHeaders(res: request.Response) {
  const names = (res as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders
    .filter((_, i) => i % 2 === 0)
    .map((name) => name.toLowerCase());
  return {
    accel: res.headers['x-accel-expires'] as string | undefined,
    cdn: res.headers['cdn-cache-control'] as string | undefined,
    browser: res.headers['cache-control'] as string | undefined,
    accelFirst: names.indexOf('x-accel-expires') < names.indexOf('cache-control'),
  };
}

describe('edgeSeconds', () => {
  it('is the limit when the bytes do not change with time', () => {
    expect(edgeSeconds(0, null, 5)).toBe(5);
  });
  it('never reaches past the next change, rounded down to whole seconds', () => {
    expect(edgeSeconds(0, 60_000, 5)).toBe(5);
    expect(edgeSeconds(0, 3_999, 5)).toBe(3);
    expect(edgeSeconds(0, 1_000, 5)).toBe(1);
  });
  it('is one second in the last second before a change, so that a crowd never passes the edge', () => {
    expect(edgeSeconds(0, 999, 5)).toBe(1);
    expect(edgeSeconds(0, 1, 5)).toBe(1);
  });
  it('is 0 once the change has come, and whenever pages are not offered to the edge', () => {
    expect(edgeSeconds(10, 0, 5)).toBe(0);
    expect(edgeSeconds(10, 10, 5)).toBe(0);
    expect(edgeSeconds(0, null, 0)).toBe(0);
    expect(edgeSeconds(0, 999, 0)).toBe(0);
  });
});

describe('a page offered to the edge', () => {
  it('carries the default lifetime for the edge, before Cache-Control, and the browser rule unchanged', async () => {
    const app = await appAt(START - 2 * HOUR_MS - 15 * MINUTE_MS - 30 * SECOND_MS);
    for (const path of ['/', '/impressum']) {
      const res = await request(app).get(path).set('Cookie', 'selectedLanguage=en').expect(200);
      expect(edgeHeaders(res)).toEqual({
        accel: '5',
        cdn: 'max-age=5',
        browser: 'private, no-cache',
        accelFirst: true,
      });
    }
  });

  it("ends the landing page lifetime at the countdown's next step, the start, each segment's start and the end", async () => {
    const step = eventClock(START - 2 * HOUR_MS - 20 * MINUTE_MS, TIMES, PAGE_COUNTDOWN_STEP_MS).changesAt!;
    const cases: [number, string | undefined][] = [
      [step - 3_200, '3'],
      [step - 800, '1'],
      [START - 2_500, '2'],
      [START - 400, '1'],
      [START, '5'],
      [END - 4_100, '4'],
      [END - 1, '1'],
      [END + HOUR_MS, '5'],
    ];
    for (const [now, seconds] of cases) {
      const res = await request(await appAt(now)).get('/');
      expect(res.status).toBe(200);
      expect({ now, accel: res.headers['x-accel-expires'], cdn: res.headers['cdn-cache-control'] }).toEqual({
        now,
        accel: seconds,
        cdn: seconds && `max-age=${seconds}`,
      });
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
    // During the broadcast the landing page marks the segment on air: its lifetime ends at the next one's start.
    const [, second, third] = content.public.event.programme;
    for (const [now, seconds] of [
      [second!.start - 2_500, '2'],
      [second!.start, '5'],
      [third!.start - 700, '1'],
    ] as const) {
      const res = await request(await appAt(now)).get('/');
      expect({ now, accel: res.headers['x-accel-expires'] }).toEqual({ now, accel: seconds });
    }
    // The legal notice shows no clock, but its description names the phase: it ends at the start,
    // and the limit holds between the phase's changes.
    const impressum = await request(await appAt(START - 400)).get('/impressum');
    expect(impressum.headers['x-accel-expires']).toBe('1');
    const earlier = await request(await appAt(step - 800)).get('/impressum');
    expect(earlier.headers['x-accel-expires']).toBe('5');
  });
});

describe("a page's Date", () => {
  it('is the second the clock was read in for its lifetime, not the one it is sent in', async () => {
    // The edge counts the lifetime from the Date (the VCL): a page read 0.4 s before the start and
    // sent after it, its render slow, would otherwise be kept with its countdown past the start.
    // The app's clock is months from the real one, so a Date written as the answer is sent differs.
    let now = START - 400;
    const { app } = await testApp({ content, now: () => now }, { NODE_ENV: 'test' });
    const res = await request(app).get('/').expect(200);
    expect(res.headers['cdn-cache-control']).toBe('max-age=1');
    expect(res.headers.date).toBe(new Date(START - 400).toUTCString());
    now = START + 600;
    const revalidated = await request(app).get('/').set('If-None-Match', res.headers.etag!);
    expect(revalidated.headers.date).toBe(new Date(START + 600).toUTCString());
  });
});

describe('a revalidated page', () => {
  it("carries its lifetime on the 304 too: a cache renews a kept copy by the 304's lifetime, not the copy's", async () => {
    // Varnish revalidates an expired copy with its ETag; had the 304 no lifetime of its own, the
    // copy's earlier one would be renewed, and the countdown shown past the start.
    const fresh = await request(await appAt(START - 4_200))
      .get('/')
      .expect(200);
    expect(fresh.headers['cdn-cache-control']).toBe('max-age=4');
    const revalidated = await request(await appAt(START - 400))
      .get('/')
      .set('If-None-Match', fresh.headers.etag!)
      .expect(304);
    expect({ accel: revalidated.headers['x-accel-expires'], cdn: revalidated.headers['cdn-cache-control'] }).toEqual({
      accel: '1',
      cdn: 'max-age=1',
    });
  });
});

describe('what is never offered to the edge', () => {
  const before = START - 2 * HOUR_MS;

  it('an answer to ?lng= (any case, any value), which sets the cookie or follows the address', async () => {
    const app = await appAt(before);
    for (const query of ['?lng=en', '?LNG=es', '?Lng=de&utm_source=x', '?lng=xx', '?lng=en&lng=es']) {
      const res = await request(app).get(`/${query}`).expect(200);
      expect({ query, ...edgeHeaders(res), accelFirst: undefined }).toEqual({
        query,
        accel: undefined,
        cdn: undefined,
        browser: 'private, no-cache',
        accelFirst: undefined,
      });
    }
    const chosen = await request(app).get('/?lng=en');
    expect(chosen.headers['set-cookie']).toEqual([expect.stringMatching(/^selectedLanguage=en;/)]);
  });

  it('a page asked for with a cookie naming a language not offered, however well-formed', async () => {
    const app = await appAt(before);
    for (const cookie of [
      'selectedLanguage=fr',
      'selectedLanguage=pt-BR',
      'selectedLanguage=',
      'selectedLanguage=DE',
    ]) {
      const res = await request(app).get('/').set('Cookie', cookie).expect(200);
      expect({ cookie, accel: res.headers['x-accel-expires'], cdn: res.headers['cdn-cache-control'] }).toEqual({
        cookie,
        accel: undefined,
        cdn: undefined,
      });
      expect(res.text).toContain('<html lang="de"');
    }
    // Another cookie alone is a first visit like no cookie at all, and kept as one.
    const other = await request(app).get('/').set('Cookie', 'utm=1').expect(200);
    expect(other.headers['cdn-cache-control']).toBe('max-age=5');
  });

  it('the 404 page', async () => {
    const res = await request(await appAt(before))
      .get('/no-such-page')
      .expect(404);
    expect(res.headers['x-accel-expires']).toBeUndefined();
    expect(res.headers['cdn-cache-control']).toBeUndefined();
  });

  it('any page when PAGE_EDGE_SECONDS is 0; a shorter limit where it is set', async () => {
    const off = await request(await appAt(before, { PAGE_EDGE_SECONDS: '0' })).get('/');
    expect(off.headers['x-accel-expires']).toBeUndefined();
    expect(off.headers['cdn-cache-control']).toBeUndefined();
    const two = await request(await appAt(before, { PAGE_EDGE_SECONDS: '2' })).get('/impressum');
    expect(two.headers['x-accel-expires']).toBe('2');
    expect(two.headers['cdn-cache-control']).toBe('max-age=2');
  });
});
