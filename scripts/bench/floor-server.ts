/**
 * The benchmark's baseline: bare Express with helmet's defaults answering every GET with
 * res.send of one gzipped page (its ETag and 304s included), no logging. It measures what the
 * stack under the server costs, not the server's work. Usage: floor-server.ts <page.html.gz>
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import express from 'express';
import helmet from 'helmet';

const body = readFileSync(process.argv[2]!);
const app = express();
app.use(helmet());
app.get('/{*splat}', (_req, res) => {
  res
    .set({ 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', vary: 'Accept-Encoding' })
    .send(body);
});

const server = createServer(app).listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 }));
});
