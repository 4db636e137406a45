import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { Rendition } from '../../server/photos/photo-encoding.ts';
import { INDEX_FILE, photoStore, renditionFile, renditionOfFile } from '../../server/photos/photo-store.ts';

const folders = mkdtempSync(path.join(os.tmpdir(), 'photo-store-test-'));
afterAll(() => rmSync(folders, { recursive: true, force: true }));
const newFolder = () => mkdtempSync(path.join(folders, 'run-'));
const logger = pino({ level: 'silent' });

const HASH_A = 'AAAAAAAAAAAAAAAAAAAAAA';
const HASH_B = 'BBBBBBBBBBBBBBBBBBBBBB';

function renditions(size: number): Rendition[] {
  return [
    { crop: 'landscape', format: 'webp', width: 480, height: 270, bytes: Buffer.alloc(size, 1) },
    { crop: 'portrait', format: 'jpeg', width: 360, height: 640, bytes: Buffer.alloc(size, 2) },
  ];
}

describe('renditionOfFile', () => {
  it("reads back what a picture's name says: its photo, crop, width and format", () => {
    for (const rendition of [
      { crop: 'landscape', format: 'jpeg', width: 1280 },
      { crop: 'portrait', format: 'webp', width: 360 },
      { crop: 'logo', format: 'png', width: 216 },
    ] as const) {
      expect(renditionOfFile(renditionFile(HASH_A, rendition))).toEqual({ photoHash: HASH_A, ...rendition });
    }
    for (const other of [
      'index.json',
      `${HASH_A}-l1280.jpeg`,
      `${HASH_A}-x480.jpg`,
      'munich-1600.jpg',
      `${HASH_A}-l.jpg`,
    ])
      expect(renditionOfFile(other), other).toBeNull();
  });
});

describe('photoStore', () => {
  it('writes the pictures under names of their photo, crop and width, and serves only those', async () => {
    const dir = newFolder();
    const store = photoStore({ dir, maxBytes: 10_000, logger });
    const set = await store.put('https://b.example/a.jpg', 'slide', HASH_A, renditions(100));
    expect(set.renditions.map(({ file }) => file)).toEqual([`${HASH_A}-l480.webp`, `${HASH_A}-p360.jpg`]);
    expect(store.get('https://b.example/a.jpg')).toEqual(set);
    expect(store.file(`${HASH_A}-l480.webp`)).toEqual({
      path: path.join(dir, `${HASH_A}-l480.webp`),
      type: 'image/webp',
      size: 100,
    });
    expect(store.file(INDEX_FILE)).toBeUndefined();
    expect(store.file(`../${HASH_A}-l480.webp`)).toBeUndefined();
    expect(store.usedBytes).toBe(200);
  });

  it('refuses a photo whose pictures would take more than its bytes, and keeps what it holds', async () => {
    const dir = newFolder();
    const store = photoStore({ dir, maxBytes: 500, logger });
    await store.put('a', 'slide', HASH_A, renditions(200));
    await expect(store.put('b', 'slide', HASH_B, renditions(200))).rejects.toThrow(/PHOTOS_DISK_MB/);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(readdirSync(dir).sort()).toEqual([`${HASH_A}-l480.webp`, `${HASH_A}-p360.jpg`, INDEX_FILE]);
  });

  it('gives a restarted server the sets whose files are all there, and removes its own leftovers only', async () => {
    const dir = newFolder();
    const first = photoStore({ dir, maxBytes: 10_000, logger });
    await first.put('a', 'slide', HASH_A, renditions(10));
    await first.put('b', 'logo', HASH_B, renditions(10));
    rmSync(path.join(dir, renditionFile(HASH_B, renditions(1)[1]!)));
    const leftover = `${HASH_A}-l960.webp.123.0b3f7a52-0000-4000-8000-000000000000.tmp`;
    writeFileSync(path.join(dir, leftover), 'half');
    writeFileSync(path.join(dir, 'notes.txt'), 'not ours');

    const second = photoStore({ dir, maxBytes: 10_000, logger });
    expect(second.get('a')).toEqual(first.get('a'));
    expect(second.get('b'), 'a set with a file missing is made again').toBeUndefined();
    expect(readdirSync(dir)).not.toContain(leftover);
    expect(readdirSync(dir)).not.toContain(`${HASH_B}-l480.webp`);
    expect(readdirSync(dir)).toContain('notes.txt');
  });

  it('forgets the sets of photos no longer shown, and removes their files', async () => {
    const dir = newFolder();
    const store = photoStore({ dir, maxBytes: 10_000, logger });
    await store.put('a', 'slide', HASH_A, renditions(10));
    await store.put('b', 'slide', HASH_B, renditions(10));
    store.alias('a-copy', store.get('a')!);
    await store.keepOnly(new Set(['a-copy']));
    expect(store.get('a')).toBeUndefined();
    expect(store.get('a-copy')).toBeDefined();
    expect(store.get('b')).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual([`${HASH_A}-l480.webp`, `${HASH_A}-p360.jpg`, INDEX_FILE]);
    expect(store.usedBytes).toBe(20);
  });

  it('starts on a folder it cannot read, and refuses photos there without stopping the server', async () => {
    const file = path.join(newFolder(), 'a-file');
    writeFileSync(file, '');
    const store = photoStore({ dir: path.join(file, 'photos'), maxBytes: 10_000, logger });
    await expect(store.put('a', 'slide', HASH_A, renditions(10))).rejects.toThrow();
    expect(store.get('a')).toBeUndefined();
  });
});
