import http from 'node:http';
import { decodeBody } from '../../scripts/harness/content-coding.ts';

/** One answer as a visitor's client receives it: the body as sent, not decoded. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** Headers as a client sends them; a list is sent as that many headers of one name. */
export type RequestHeaders = Record<string, string | string[]>;

export function get(url: string, headers: RequestHeaders = {}): Promise<Answer> {
  return ask('GET', url, headers);
}

/** A HEAD request: the answer's headers, and an empty body. */
export function head(url: string, headers: RequestHeaders = {}): Promise<Answer> {
  return ask('HEAD', url, headers);
}

function ask(method: 'GET' | 'HEAD', url: string, headers: RequestHeaders): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers, method }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body as the client reads it, after its content coding. */
export function decoded(answer: Answer): Buffer {
  return decodeBody(answer.body, answer.headers['content-encoding']);
}

/** Runs `count` requests, at most `concurrency` at a time, in order of their index. */
export async function many<T>(count: number, concurrency: number, send: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await send(index);
      }
    }),
  );
  return results;
}

/** What browsers and other clients send, and the coding each may be answered in. */
export const ACCEPT_ENCODINGS = [
  { header: 'gzip, deflate, br, zstd', codings: ['br', 'gzip'] },
  { header: 'gzip, deflate', codings: ['gzip'] },
  { header: 'identity', codings: [undefined] },
] as const;

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
