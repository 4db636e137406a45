import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** A body as a client reads it, after the server's content coding (none, brotli or gzip). */
export function decodeBody(body: Buffer, coding: string | undefined): Buffer {
  switch (coding) {
    case undefined:
      return body;
    case 'br':
      return brotliDecompressSync(body);
    case 'gzip':
      return gunzipSync(body);
    default:
      throw new Error(`unexpected coding ${coding}`);
  }
}
