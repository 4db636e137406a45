/**
 * A baseline server for the benchmark: answers every request with one recorded
 * response (same status, headers and compressed body), so it measures the floor of
 * the stack under it, not our work. Usage: replay-server.ts <node-http|express|floor> <recording.json>
 *
 * - node-http, express: the recording's bytes as they are, headers included (express adds
 *   helmet's, then sends the recording's in their place);
 * - floor: bare Express with helmet's defaults answering every GET with res.send of the
 *   recording's body and its few entity headers, helmet's headers kept, no logging: the floor the
 *   page's origin is held to (npm run bench records it gzipped at level 6).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import helmet from 'helmet';
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
} else {
  throw new Error(`Unknown baseline "${kind}"`);
}

const server = createServer(handler).listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 }));
});
