import { describe, expect, it } from 'vitest';
import { PUBLIC_DIR } from '../../server/config/paths.ts';
import { localPhotos, photoLoader, remotePhotos } from '../../server/photos/photo-loader.ts';
import { PHOTO } from '../helpers/photos.ts';

const signal = new AbortController().signal;

describe("the content file's photos, from public/", () => {
  it('are read by their site-relative address', async () => {
    const load = localPhotos(PUBLIC_DIR, 16 * 1024 * 1024);
    expect((await load('/images/hero/munich-1600.jpg', signal)).equals(PHOTO)).toBe(true);
  });

  it('never from outside public/, nor over the byte limit', async () => {
    const load = localPhotos(PUBLIC_DIR, 16 * 1024 * 1024);
    await expect(load('/../package.json', signal)).rejects.toThrow();
    await expect(load('/images/..%2F..%2Fpackage.json', signal)).rejects.toThrow(/not a file of public/);
    await expect(localPhotos(PUBLIC_DIR, 1000)('/images/hero/munich-1600.jpg', signal)).rejects.toThrow(
      /larger than 1000 bytes/,
    );
  });

  it('go to the local reader, any other address to the remote one', async () => {
    const seen: string[] = [];
    const load = photoLoader(
      async (address) => (seen.push(`local ${address}`), Buffer.alloc(0)),
      async (address) => (seen.push(`remote ${address}`), Buffer.alloc(0)),
    );
    for (const address of ['/images/a.jpg', '//elsewhere.example/a.jpg', 'https://b.example/a.jpg'])
      await load(address, signal);
    expect(seen).toEqual(['local /images/a.jpg', 'remote //elsewhere.example/a.jpg', 'remote https://b.example/a.jpg']);
    await expect(remotePhotos(() => false, 1000)('//elsewhere.example/a.jpg', signal)).rejects.toThrow(
      /not an address images may come from/,
    );
  });
});
