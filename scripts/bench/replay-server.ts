/**
 * A baseline server for the benchmark: answers every request with one recorded
 * response (same status, headers and compressed body), so it measures the floor of
 * the stack under it, not our work. Usage: replay-server.ts <node-http|express|floor|ceiling> <recording.json>
 *
 * - node-http, express: the recording's bytes as they are, headers included (express adds
 *   helmet's, then sends the recording's in their place);
 * - floor: bare Express with helmet's defaults answering every GET with res.send of the
 *   recording's body and its few entity headers, helmet's headers kept, no logging: the floor the
 *   page's origin is held to (npm run bench records it gzipped at level 6).
 * - ceiling: node:http answering every request with the recording (one of the origin's kept
 *   answers) as the origin's kept-page path writes it, through server/http/written-heads.ts, with
 *   a new request id each time and nothing else: no routing, no log line, no metrics. The most the
 *   origin could reach on the same machine were its own work free.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import helmet from 'helmet';
import { REQUEST_ID_HEADER } from '../../server/http/request-id.ts';
import { headKey, WrittenHeads } from '../../server/http/written-heads.ts';
import type { Recording } from './recording.ts';

const [kind, file] = process.argv.slice(2);
const recording = JSON.parse(readFileSync(file!, 'utf8')) as Recording;
const body = Buffer.from(recording.bodyBase64, 'base64');
const headers = { ...recording.headers, 'content-length': String(body.length) };

function replay(_req: IncomingMessage, res: ServerResponse) {
  res.writeHead(recording.status, headers);
  res.end(body);
}

let handler: (req: IncomingMessage, res: ServerResponse) => void;
if (kind === 'node-http') {
  handler = replay;
} else if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.use(helmet());
  // The recorded headers come last, so the bytes on the wire are the recording's.
  app.use((req, res) => {
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    replay(req, res);
  });
  handler = app;
} else if (kind === 'floor') {
  // As a bare Express app answers: res.send, which adds its ETag and answers 304 when fresh.
  const app = express();
  app.use(helmet());
  app.get('/{*splat}', (_req, res) => {
    res.status(recording.status).set(recording.headers).send(body);
  });
  handler = app;
} else if (kind === 'ceiling') {
  const others = Object.entries(headers).filter(([name]) => name !== REQUEST_ID_HEADER.toLowerCase());
  const flat = [REQUEST_ID_HEADER, '', ...others.flat()];
  const answer = { status: recording.status, key: headKey(recording.status, flat), body };
  const heads = new WrittenHeads(REQUEST_ID_HEADER);
  handler = (req, res) => {
    const requestId = randomUUID();
    if (heads.write(req, res, answer, requestId)) return;
    flat[1] = requestId;
    res.writeHead(recording.status, flat);
    heads.learn(req, res, answer, requestId);
    res.end(body);
  };
} else {
  throw new Error(`Unknown baseline "${kind}"`);
}

const server = createServer(handler).listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 }));
});
