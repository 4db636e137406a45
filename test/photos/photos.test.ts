import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HANG, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { imagePolicy } from '../../server/backend/image-policy.ts';
import { PUBLIC_DIR } from '../../server/config/paths.ts';
import { encodePhoto } from '../../server/photos/encode.ts';
import { EncodeQueue } from '../../server/photos/encode-queue.ts';
import { encoderProcess, type PhotoEncoder } from '../../server/photos/encoder-process.ts';
import { PIXEL_LIMITS } from '../../server/photos/photo-encoding.ts';
import { localPhotos, photoLoader, remotePhotos } from '../../server/photos/photo-loader.ts';
import { INDEX_FILE, photoStore } from '../../server/photos/photo-store.ts';
import { photos } from '../../server/photos/photos.ts';
import { ManualClock } from '../helpers/backend.ts';
import { decompressionBomb, smallPhoto } from '../helpers/photos.ts';

const folders = mkdtempSync(path.join(os.tmpdir(), 'photos-test-'));
afterAll(() => rmSync(folders, { recursive: true, force: true }));

let fake: FakeSupabase;
let encoder: PhotoEncoder;
beforeEach(async () => {
  fake = await startFakeSupabase();
  encoder = encoderProcess({ limits: { maxPixels: PIXEL_LIMITS }, idleMs: 1000, timeoutMs: 20_000 });
});
afterEach(async () => {
  await encoder.close();
  await fake.close();
});

/** Above the decompression bomb's few hundred kilobytes. */
const MAX_BYTES = 512 * 1024;
const FETCH_TIMEOUT_MS = 300;

/** The photos of the fake backend's storage, with a short fetch deadline, on a clock the test moves. */
function backendPhotos(dir = mkdtempSync(path.join(folders, 'run-'))) {
  const clock = new ManualClock();
  const logLines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  );
  const policy = imagePolicy(fake.url, []);
  const store = photoStore({ dir, maxBytes: 8 * 1024 * 1024, logger });
  const made = photos({
    groups: ['slides'],
    store,
    queue: new EncodeQueue(10),
    load: photoLoader(localPhotos(PUBLIC_DIR, MAX_BYTES), remotePhotos(policy.allows, MAX_BYTES)),
    encode: encoder.encode,
    fetchTimeoutMs: FETCH_TIMEOUT_MS,
    retryAfterFailureMs: 60_000,
    recheckMs: 600_000,
    now: clock.now,
    logger,
  });
  return { made, store, clock, logLines, dir };
}

const photoWarnings = (logLines: Record<string, unknown>[]) =>
  logLines.filter((line) => line.msg === 'photo cannot be made; its slide shows the gradient');

describe('photos made of the backend storage', () => {
  it('are not there at first, then made once in the background, however often asked', async () => {
    fake.objects.set('hero/good.jpg', { body: await smallPhoto(), contentType: 'image/jpeg' });
    const { made } = backendPhotos();
    const address = fake.image('good.jpg');
    expect(made.of(address, 'slide')).toBeNull();
    expect(made.of(address, 'slide')).toBeNull();
    const before = made.version;
    await made.settled();
    expect(made.version).toBeGreaterThan(before);
    const set = made.of(address, 'slide')!;
    expect(set.renditions.map((r) => `${r.crop}${r.width}.${r.format}`)).toEqual([
      'landscape480.webp',
      'landscape480.jpeg',
      'landscape640.webp',
      'landscape640.jpeg',
      'portrait202.webp',
      'portrait202.jpeg',
    ]);
    expect(fake.objectRequests.get('hero/good.jpg')).toBe(1);
  });

  it.each([
    ['a host that never answers', () => HANG, /timed out/],
    ['an error status', () => ({ body: Buffer.from('{}'), contentType: 'application/json', status: 404 }), /HTTP 404/],
    [
      'a body over the byte limit',
      () => ({ body: Buffer.alloc(MAX_BYTES + 1), contentType: 'image/jpeg' }),
      /larger than/,
    ],
    [
      'a page, not an image',
      () => ({ body: Buffer.from('<!doctype html><p>Not found'), contentType: 'image/jpeg' }),
      /not an image/,
    ],
    [
      'garbage',
      () => ({
        body: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
        contentType: 'image/jpeg',
      }),
      /not an image/,
    ],
  ])('leave a slide without a picture for %s, with one warning, and try again only later', async (_, reply, reason) => {
    fake.objects.set('hero/bad.jpg', reply());
    const { made, clock, logLines } = backendPhotos();
    const address = fake.image('bad.jpg');
    made.of(address, 'slide');
    await made.settled();
    expect(made.of(address, 'slide')).toBeNull();
    await made.settled();
    expect(fake.objectRequests.get('hero/bad.jpg')).toBe(1);
    expect(photoWarnings(logLines)).toEqual([
      expect.objectContaining({ address, reason: expect.stringMatching(reason) }),
    ]);
    clock.advance(61);
    made.of(address, 'slide');
    await made.settled();
    expect(fake.objectRequests.get('hero/bad.jpg')).toBe(2);
  });

  it('refuse a decompression bomb', async () => {
    fake.objects.set('hero/bomb.png', { body: await decompressionBomb(), contentType: 'image/png' });
    const { made, logLines } = backendPhotos();
    made.of(fake.image('bomb.png'), 'slide');
    await made.settled();
    expect(made.of(fake.image('bomb.png'), 'slide')).toBeNull();
    expect(photoWarnings(logLines)).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/pixel limit|more than/) }),
    ]);
  });

  it('fetch nothing from a host the image policy does not allow', async () => {
    const { made, logLines } = backendPhotos();
    made.of('https://elsewhere.example/photo.jpg', 'slide');
    await made.settled();
    expect(photoWarnings(logLines)).toEqual([
      expect.objectContaining({ reason: 'not an address images may come from' }),
    ]);
  });

  it('are made one at a time, and keep the others being made when one fails', async () => {
    fake.objects.set('hero/a.jpg', { body: await smallPhoto('#112233'), contentType: 'image/jpeg' });
    fake.objects.set('hero/b.jpg', HANG);
    fake.objects.set('hero/c.jpg', { body: await smallPhoto('#332211'), contentType: 'image/jpeg' });
    const { made } = backendPhotos();
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg']) made.of(fake.image(name), 'slide');
    await made.settled();
    expect(made.of(fake.image('a.jpg'), 'slide')).not.toBeNull();
    expect(made.of(fake.image('b.jpg'), 'slide')).toBeNull();
    expect(made.of(fake.image('c.jpg'), 'slide')).not.toBeNull();
  });

  it('outlive a backend outage and a restart: a new server serves them from its folder while it checks them again', async () => {
    fake.objects.set('hero/good.jpg', { body: await smallPhoto(), contentType: 'image/jpeg' });
    const first = backendPhotos();
    first.made.keep('slides', [fake.image('good.jpg')]);
    first.made.of(fake.image('good.jpg'), 'slide');
    await first.made.settled();
    const set = first.made.of(fake.image('good.jpg'), 'slide');
    fake.objects.set('hero/good.jpg', HANG);

    const second = backendPhotos(first.dir);
    second.made.keep('slides', [fake.image('good.jpg')]);
    expect(second.made.of(fake.image('good.jpg'), 'slide')).toEqual(set);
    await second.made.settled();
    expect(fake.objectRequests.get('hero/good.jpg')).toBe(2);
    expect(second.logLines.find((line) => line.level === 40)).toMatchObject({
      msg: 'photo cannot be checked again; its last pictures stay',
      reason: 'timed out',
    });
    expect(second.made.of(fake.image('good.jpg'), 'slide')).toEqual(set);
    expect(second.store.file(set!.renditions[0]!.file)).toBeDefined();
  });

  it('are made again when the photo was replaced under the same address, once it is checked again', async () => {
    fake.objects.set('hero/a.jpg', { body: await smallPhoto('#112233'), contentType: 'image/jpeg' });
    const { made, clock, store } = backendPhotos();
    made.of(fake.image('a.jpg'), 'slide');
    await made.settled();
    const old = made.of(fake.image('a.jpg'), 'slide')!;
    await made.settled();
    expect(fake.objectRequests.get('hero/a.jpg'), 'not checked again at once').toBe(1);

    fake.objects.set('hero/a.jpg', { body: await smallPhoto('#aa3322'), contentType: 'image/jpeg' });
    clock.advance(599);
    expect(made.of(fake.image('a.jpg'), 'slide')).toBe(old);
    clock.advance(1);
    const version = made.version;
    expect(made.of(fake.image('a.jpg'), 'slide'), 'the old pictures until the new are made').toBe(old);
    await made.settled();
    const replaced = made.of(fake.image('a.jpg'), 'slide')!;
    expect(replaced.photoHash).not.toBe(old.photoHash);
    expect(made.version).toBeGreaterThan(version);
    expect(store.file(old.renditions[0]!.file), 'the old pictures are removed').toBeUndefined();
  });

  it('are removed once no slide shows them, and not before every user has said what it shows', async () => {
    fake.objects.set('hero/a.jpg', { body: await smallPhoto('#112233'), contentType: 'image/jpeg' });
    const { made, store, dir } = backendPhotos();
    made.of(fake.image('a.jpg'), 'slide');
    await made.settled();
    const logoUser = photos({
      groups: ['slides', 'logo'],
      store,
      queue: new EncodeQueue(1),
      load: async () => Buffer.alloc(0),
      encode: (bytes, kind) => encodePhoto(bytes, kind, { maxPixels: PIXEL_LIMITS }),
      fetchTimeoutMs: 1,
      retryAfterFailureMs: 1,
      recheckMs: 1,
      now: Date.now,
      logger: pino({ level: 'silent' }),
    });
    logoUser.keep('slides', []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.get(fake.image('a.jpg')), 'the logo has not said yet').toBeDefined();
    logoUser.keep('logo', []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(store.get(fake.image('a.jpg'))).toBeUndefined();
    expect(store.usedBytes).toBe(0);
    expect(readdirSync(dir)).toEqual([INDEX_FILE]);
  });
});
