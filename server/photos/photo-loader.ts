import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { boundedFetch } from '../backend/supabase.ts';
import { PhotoError } from './photo-encoding.ts';

/** Reads the photo at an address; throws (PhotoError, or the fetch's own error) when it cannot. */
export type PhotoLoader = (address: string, signal: AbortSignal) => Promise<Buffer>;

/**
 * Photos from the backend's storage or another allowed host: at most `maxBytes` (a larger
 * answer is cut off as it arrives), no redirect followed, and only from the addresses `allows`
 * admits (the image policy: the check is made again here, whatever the caller checked).
 */
export function remotePhotos(allows: (address: string) => boolean, maxBytes: number): PhotoLoader {
  const fetchAtMost = boundedFetch(maxBytes);
  return async (address, signal) => {
    if (!allows(address)) throw new PhotoError('not an address images may come from');
    const response = await fetchAtMost(address, { signal, headers: { Accept: 'image/*' } });
    if (response.status !== 200) throw new PhotoError(`answered HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  };
}

/**
 * Photos the content file names by a site-relative address (`/images/hero/munich-2400.jpg`),
 * read from public/; nothing outside that folder, and nothing over `maxBytes`.
 */
export function localPhotos(publicDir: string, maxBytes: number): PhotoLoader {
  const root = path.resolve(publicDir);
  return async (address) => {
    const file = path.resolve(root, `.${decodeURIComponent(new URL(address, 'http://site').pathname)}`);
    if (!file.startsWith(root + path.sep)) throw new PhotoError('not a file of public/');
    const { size } = await stat(file);
    if (size > maxBytes) throw new PhotoError(`larger than ${maxBytes} bytes`);
    return readFile(file);
  };
}

/** Site-relative addresses from public/, any other through `remote`. */
export function photoLoader(local: PhotoLoader, remote: PhotoLoader): PhotoLoader {
  return (address, signal) => (address.startsWith('/') && !address.startsWith('//') ? local : remote)(address, signal);
}
