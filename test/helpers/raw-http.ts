import { once } from 'node:events';
import net from 'node:net';
import { setTimeout } from 'node:timers/promises';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  socket: net.Socket;
  /** Sends bytes as they are: no client normalises the path or refuses odd bytes. */
  send(text: string): void;
  /** The answer, read until the server closes the connection. */
  answer: Promise<RawAnswer>;
}

export function openConnection(port: number): RawConnection {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status, headers, body: text.slice(split + 4) });
    });
  });
  // A connection the server cuts may close before the test awaits its answer: that is an outcome
  // the test checks when it gets there, not an unhandled rejection now.
  answer.catch(() => {});
  // Never end(): a half-closed connection makes Node drop the request it has not answered yet.
  return { socket, send: (text) => socket.write(text), answer };
}

/** One request exactly as written, and its answer. */
export function rawRequest(port: number, head: string, body = ''): Promise<RawAnswer> {
  const connection = openConnection(port);
  connection.send(`${head}\r\n\r\n${body}`);
  return connection.answer;
}

/** A GET (or another method) with `Connection: close` and the given extra header lines. */
export function rawGet(port: number, path: string, headers: string[] = [], method = 'GET'): Promise<RawAnswer> {
  return rawRequest(
    port,
    [`${method} ${path} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headers].join('\r\n'),
  );
}

/**
 * Everything a server sends on one connection for these requests, until it closes it: each
 * request sent once the answer to the one before has begun to arrive, or all in one write
 * (pipelined). The last request should close the connection.
 */
export async function onTheWire(port: number, requests: string[], { pipelined = false } = {}): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  const received: Buffer[] = [];
  let length = 0;
  socket.on('data', (chunk: Buffer) => {
    received.push(chunk);
    length += chunk.length;
  });
  await once(socket, 'connect');
  if (pipelined) socket.write(requests.join(''));
  else
    for (const request of requests) {
      const before = length;
      socket.write(request);
      while (length === before && !socket.closed) await setTimeout(2);
      await setTimeout(5);
    }
  if (!socket.closed) await once(socket, 'close');
  return Buffer.concat(received).toString('latin1');
}
