import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** One answer's bytes in each content coding it is served in, compressed once, sent many times. */
export interface EncodedBody {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Compresses a small body (an /api answer) at once; pages, being larger, are compressed off the main thread. */
export function encodeSmallBody(text: string): EncodedBody {
  const identity = Buffer.from(text);
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** Ends the answer with the body in the best coding the client accepts. */
export function sendEncoded(req: Request, res: Response, body: EncodedBody): void {
  // Brotli whenever it is accepted at all: browsers list it after gzip at the same weight.
  const coding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : undefined;
  const bytes = coding ? body[coding] : body.identity;
  res.vary('Accept-Encoding');
  if (coding) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
