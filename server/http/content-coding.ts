import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import Negotiator from 'negotiator';

/** The content codings the server sends, best first: brotli wins a tie. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** One answer's bytes in each content coding it is served in, compressed once, sent many times. */
export interface EncodedBody extends Record<Coding, Buffer> {
  identity: Buffer;
}

/** Compresses a small body (an /api answer) at once; pages, being larger, are compressed off the main thread. */
export function encodeSmallBody(text: string): EncodedBody {
  const identity = Buffer.from(text);
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/** Answers that chose their content coding among the copies made for them. */
const codingChosen = new WeakSet<ServerResponse>();

/**
 * Marks an answer as sent in the coding it chose among its copies: the compression middleware
 * leaves it as it is (a client that accepts neither brotli nor gzip gets the identity body, not
 * a compression made again on every request).
 */
export function choseCoding(res: ServerResponse): void {
  codingChosen.add(res);
}

export function hasChosenCoding(res: ServerResponse): boolean {
  return codingChosen.has(res);
}

/** Ends the answer with the body in the best coding the client accepts. */
export function sendEncoded(req: Request, res: Response, body: EncodedBody): void {
  choseCoding(res);
  const coding = preferredCoding(req, CODINGS);
  const bytes = coding ? body[coding] : body.identity;
  res.vary('Accept-Encoding');
  if (coding) res.setHeader('Content-Encoding', coding);
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

/**
 * Of the codings there are, the one the client rates highest (brotli on a tie: browsers list it
 * after gzip at the same weight); none, meaning the identity body, when it prefers that or
 * accepts none of them.
 */
export function preferredCoding(
  req: { headers: IncomingHttpHeaders },
  available: readonly Coding[],
): Coding | undefined {
  const header = req.headers['accept-encoding'];
  const key = `${available.join()}|${header}`;
  if (chosenCodings.has(key)) return chosenCodings.get(key);
  const offered = [...available, 'identity'];
  const chosen = new Negotiator(req).encoding(offered, { preferred: offered });
  const coding = available.find((candidate) => candidate === chosen);
  if (chosenCodings.size >= MAX_REMEMBERED_CHOICES) chosenCodings.clear();
  chosenCodings.set(key, coding);
  return coding;
}

/** The coding chosen for each Accept-Encoding value seen: browsers send a handful of them, on every request. */
const chosenCodings = new Map<string, Coding | undefined>();
const MAX_REMEMBERED_CHOICES = 64;
