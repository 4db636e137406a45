import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { headKey, WrittenHeads, type HeadedAnswer } from '../../server/http/written-heads.ts';
import { onTheWire } from '../helpers/raw-http.ts';

const ID_HEADER = 'X-Request-Id';
const PAGE = Buffer.from('<!doctype html><title>page</title>'.repeat(40));
const OTHER_PAGE = Buffer.from('<!doctype html><title>other</title>'.repeat(40));

/** What a request is answered with, by its path: two dozen headers, as a kept page has. */
function answerFor(req: IncomingMessage): { status: number; headers: string[]; body: Buffer | undefined } {
  const headers = [ID_HEADER, ''];
  for (let i = 0; i < 20; i++) headers.push(`X-Header-${i}`, `value ${i}; with=parameters`);
  if (req.url === '/unchanged') return { status: 304, headers: [...headers, 'ETag', 'W/"page"'], body: undefined };
  const body = req.url === '/other' ? OTHER_PAGE : PAGE;
  return { status: 200, headers: [...headers, 'Content-Length', String(body.length)], body };
}

interface Served {
  port: number;
  /** The ids of the answers written whole from a learned head. */
  written: Set<string>;
  /** Each answer's id and the second it was sent in. */
  sent: { id: string; second: number }[];
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/**
 * A server answering every request by its path, with ids 1, 2, 3 …: through `writeHead` only
 * (Node's own answers), or learning heads and writing them whole where it can.
 */
async function serve(
  kind: 'node' | 'written',
  answer = answerFor,
  options: { maxRequestsPerSocket?: number; body?: (req: IncomingMessage) => Buffer | undefined } = {},
): Promise<Served> {
  const heads = new WrittenHeads(ID_HEADER);
  const written = new Set<string>();
  const sent: Served['sent'] = [];
  let count = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const id = `id-${(count += 1)}`;
    const { status, headers, body } = answer(req);
    const made: HeadedAnswer = { status, key: headKey(status, headers), body };
    if (options.body) made.body = options.body(req);
    sent.push({ id, second: Math.floor(Date.now() / 1000) });
    if (kind === 'written' && heads.write(req, res, made, id)) {
      written.add(id);
      return;
    }
    headers[1] = id;
    res.writeHead(status, headers);
    if (kind === 'written') heads.learn(req, res, made, id);
    res.end(made.body);
  });
  if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  server.listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, written, sent };
}

/** The bytes with each Date header's value blanked: two servers answer in the same second or not. */
const withoutDates = (wire: string) => wire.replace(/\r\nDate: [^\r]*\r\n/g, '\r\nDate: …\r\n');

const get = (path: string, more = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${more}\r\n`;
const head = (path: string, more = '') => `HEAD ${path} HTTP/1.1\r\nHost: x\r\n${more}\r\n`;
const closing = 'Connection: close\r\n';

describe('heads written whole', () => {
  it('puts the same bytes on the wire as Node: GET, HEAD and a 304, asked again on one kept connection', async () => {
    const [node, written] = await Promise.all([serve('node'), serve('written')]);
    const requests = [
      get('/'),
      get('/'),
      head('/'),
      head('/'),
      get('/unchanged'),
      get('/unchanged'),
      get('/other'),
      get('/other'),
      get('/'),
      get('/', closing),
    ];
    const [fromNode, fromWritten] = await Promise.all([
      onTheWire(node.port, requests),
      onTheWire(written.port, requests),
    ]);
    expect(withoutDates(fromWritten)).toBe(withoutDates(fromNode));
    expect(fromWritten.match(/HTTP\/1\.1 /g)).toHaveLength(requests.length);
    expect(fromWritten).toContain('X-Request-Id: id-2\r\n');
    // Those asked again are written from the head learned the first time, unless the second turned in between.
    expect(written.written.size).toBeGreaterThanOrEqual(3);
    expect(written.written.has('id-10'), 'a request that closes the connection goes through writeHead').toBe(false);
  });

  it('goes through writeHead for every HTTP/1.0 request, kept open or not, as Node heads those otherwise', async () => {
    const [node, written] = await Promise.all([serve('node'), serve('written')]);
    const keptOpen = 'Connection: keep-alive\r\n';
    // The first learns the 304's head; to HTTP/1.0 Node closes the connection after it (no length, no chunks).
    const keptOpenRequests = [
      get('/unchanged'),
      `GET / HTTP/1.0\r\n${keptOpen}\r\n`,
      `GET /unchanged HTTP/1.0\r\n${keptOpen}\r\n`,
    ];
    const closingRequests = [get('/'), 'GET / HTTP/1.0\r\n\r\n'];
    for (const requests of [keptOpenRequests, closingRequests]) {
      const [fromNode, fromWritten] = await Promise.all([
        onTheWire(node.port, requests),
        onTheWire(written.port, requests),
      ]);
      expect(withoutDates(fromWritten)).toBe(withoutDates(fromNode));
      expect(fromWritten.match(/HTTP\/1\.1 /g)).toHaveLength(requests.length);
      expect(fromWritten.match(/Connection: close\r\n/g), 'the last answer closes').toHaveLength(1);
    }
    expect([...written.written], 'none: each HTTP/1.1 request here is the first of its head').toEqual([]);
  });

  it('answers pipelined requests in order, the ones waiting for the socket through writeHead', async () => {
    const [node, written] = await Promise.all([serve('node'), serve('written')]);
    const warm = await onTheWire(written.port, [get('/'), get('/', closing)]);
    expect(warm).toContain('id-2');
    const requests = [...Array.from({ length: 12 }, (_, i) => (i % 3 === 2 ? head('/') : get('/'))), get('/', closing)];
    await onTheWire(node.port, [get('/'), get('/', closing)]);
    const [fromNode, fromWritten] = await Promise.all([
      onTheWire(node.port, requests, { pipelined: true }),
      onTheWire(written.port, requests, { pipelined: true }),
    ]);
    expect(withoutDates(fromWritten)).toBe(withoutDates(fromNode));
    const ids = [...fromWritten.matchAll(/X-Request-Id: (id-\d+)/g)].map((match) => match[1]);
    expect(ids).toEqual(Array.from({ length: requests.length }, (_, i) => `id-${i + 3}`));
  });

  it("keeps to the server's limit of requests a connection, and closes the last as Node does", async () => {
    const [node, written] = await Promise.all([
      serve('node', answerFor, { maxRequestsPerSocket: 3 }),
      serve('written', answerFor, { maxRequestsPerSocket: 3 }),
    ]);
    const requests = [get('/'), get('/'), get('/')];
    const [fromNode, fromWritten] = await Promise.all([
      onTheWire(node.port, requests),
      onTheWire(written.port, requests),
    ]);
    expect(withoutDates(fromWritten)).toBe(withoutDates(fromNode));
    expect(fromWritten).toContain('Keep-Alive: timeout=5, max=3\r\n');
    expect(fromWritten.match(/HTTP\/1\.1 /g)).toHaveLength(3);
    expect(fromWritten.endsWith(PAGE.toString('latin1'))).toBe(true);
    expect(fromWritten).toMatch(/Connection: close\r\n\r\n[^]*$/);
    expect(written.written.has('id-3'), 'the last, which closes the connection').toBe(false);
  });

  it('writes no head for another body with the same headers', async () => {
    let body = PAGE;
    const written = await serve('written', answerFor, { body: () => body });
    // Where a second turned between two requests, the later learns its head anew.
    const sameSecond = (a: number, b: number) => written.sent[a - 1]!.second === written.sent[b - 1]!.second;
    await onTheWire(written.port, [get('/'), get('/'), get('/', closing)]);
    expect(written.written.has('id-2')).toBe(sameSecond(1, 2));
    body = Buffer.from(PAGE);
    const wire = await onTheWire(written.port, [get('/'), get('/'), get('/', closing)]);
    expect(wire.match(/HTTP\/1\.1 200/g)).toHaveLength(3);
    expect(written.written.has('id-4'), 'the first with the new bytes').toBe(false);
    expect(written.written.has('id-5')).toBe(sameSecond(4, 5));
  });

  it('writes each answer with the Date of the second it goes out in', async () => {
    const written = await serve('written');
    const socket = connect(written.port, '127.0.0.1');
    await once(socket, 'connect');
    let wire = '';
    socket.on('data', (chunk: Buffer) => (wire += chunk.toString('latin1')));
    const started = Date.now();
    // Two whole seconds' turns at least, one request at a time on one kept connection.
    while (Date.now() - started < 2100) {
      const answers = wire.split('HTTP/1.1 ').length;
      socket.write(get('/'));
      while (wire.split('HTTP/1.1 ').length === answers || !wire.endsWith(PAGE.toString('latin1')))
        await new Promise((r) => setTimeout(r, 1));
    }
    socket.destroy();
    const dates = new Map(
      [...wire.matchAll(/X-Request-Id: (id-\d+)\r\n[^]*?\r\nDate: ([^\r]*)\r\n/g)].map((m) => [m[1], m[2]]),
    );
    const seconds = new Set<number>();
    for (const { id, second } of written.sent) {
      if (!written.written.has(id)) continue;
      seconds.add(second);
      expect(dates.get(id), id).toBe(new Date(second * 1000).toUTCString());
    }
    expect(seconds.size, 'answers written whole in at least two seconds').toBeGreaterThanOrEqual(2);
  });

  it('keeps no head that names another second than its own: Node renews its Date a moment late', () => {
    const heads = new WrittenHeads(ID_HEADER);
    const answer: HeadedAnswer = { status: 200, key: '200', body: PAGE };
    const req = { httpVersion: '1.1', method: 'GET' } as IncomingMessage;
    const written: Buffer[] = [];
    const response = (date: string) =>
      ({
        _header: `HTTP/1.1 200 OK\r\n${ID_HEADER}: first\r\nDate: ${date}\r\nConnection: keep-alive\r\n\r\n`,
        shouldKeepAlive: true,
        statusMessage: 'OK',
        headersSent: false,
        socket: {
          writable: true,
          cork() {},
          uncork() {},
          write: (chunk: Buffer | string) => written.push(Buffer.from(chunk)),
        },
        end() {},
      }) as unknown as ServerResponse;
    const now = Date.now();
    heads.learn(req, response(new Date(now - 1000).toUTCString()), answer, 'first');
    expect(heads.write(req, response(''), answer, 'second')).toBe(false);
    // The control: the same head naming this second is kept (unless the second has just turned).
    heads.learn(req, response(new Date(now).toUTCString()), answer, 'first');
    if (Math.floor(Date.now() / 1000) === Math.floor(now / 1000)) {
      expect(heads.write(req, response(''), answer, 'second')).toBe(true);
      expect(Buffer.concat(written).toString('latin1')).toContain(`${ID_HEADER}: second\r\n`);
      // A socket closed meanwhile is left to Node's own path, which writes nothing to it.
      const closed = response('');
      (closed.socket as { writable: boolean }).writable = false;
      expect(heads.write(req, closed, answer, 'third')).toBe(false);
    }
  });
});
