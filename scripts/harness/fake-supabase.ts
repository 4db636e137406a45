import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for a Supabase project on a loopback port, speaking the wire format
 * supabase-js uses for the two calls this site makes:
 *   POST /functions/v1/hero-images              → { heroSlides: [{ image, studio }] }
 *   POST /storage/v1/object/list/logo           → [{ name, id, metadata, … }]
 *   GET  /storage/v1/object/public/logo/<name>  → the file (no key needed, as for a public bucket)
 *   GET  /rest/v1/live_state?select=*&limit=2   → the table's rows, as PostgREST answers them
 * Without the right `apikey` header it answers 401, as the real gateway does. Each call is
 * counted and recorded, and what it answers can be switched between the replies below.
 */

export type Reply =
  | { kind: 'json'; body: unknown; status?: number; contentType?: string; delayMs?: number }
  | {
      kind: 'raw';
      body: string | Buffer;
      status?: number;
      contentType?: string;
      delayMs?: number;
      withoutLength?: boolean;
      headers?: Record<string, string>;
    }
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Sends the headers and the start of a body, then nothing more. */
  | { kind: 'stall' };

export type Route = 'heroImages' | 'logoList' | 'liveRows';

export interface RecordedRequest {
  route: Route | 'publicObject' | 'other';
  method: string;
  path: string;
  /** The query string, `?` included (empty without one). */
  search: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeSupabase {
  url: string;
  key: string;
  /** Calls per route, counted when the request arrives (also those answered 401). */
  calls: Record<Route, number>;
  requests: RecordedRequest[];
  /** What each route answers now. */
  reply: Record<Route, Reply>;
  /** Holds every answer of a route until the returned function is called. */
  hold(route: Route): () => void;
  /** Resolves once the route has received `count` calls in all. */
  received(route: Route, count: number): Promise<void>;
  /** An address on this server's origin, as a hero image would have. */
  image(name: string): string;
  /**
   * Files the public buckets serve, by "<bucket>/<name>" (image(name) is "hero/<name>"); any other
   * is a stub PNG. HANG: the request is accepted and never answered.
   */
  objects: Map<string, { body: Buffer; contentType: string; status?: number } | { kind: 'hang' }>;
  /** Requests for public files, by "<bucket>/<name>". */
  objectRequests: Map<string, number>;
  close(): Promise<void>;
}

export const FAKE_KEY = 'fake-anon-key-0123456789-do-not-leak';
export const PREFERRED_LOGO = 'logo-3d-white-on-blue.png';

export const json = (body: unknown, extra: Partial<Extract<Reply, { kind: 'json' }>> = {}): Reply => ({
  kind: 'json',
  body,
  ...extra,
});
export const raw = (body: string | Buffer, extra: Partial<Extract<Reply, { kind: 'raw' }>> = {}): Reply => ({
  kind: 'raw',
  body,
  ...extra,
});
export const failure = (status: number): Reply =>
  json({ error: 'Internal Server Error', message: 'boom', statusCode: String(status) }, { status });
export const HANG = { kind: 'hang' } as const satisfies Reply;

/** PostgREST's rows: a JSON array, typed as PostgREST types it. */
export const rows = (...list: unknown[]): Reply => json(list, { contentType: 'application/json; charset=utf-8' });
/** PostgREST's error body: `{ code, details, hint, message }`. */
export const postgrestError = (status: number, code: string, message: string, hint: string | null = null): Reply =>
  json({ code, details: null, hint, message }, { status, contentType: 'application/json; charset=utf-8' });
/** The live table's row as the migrations leave it: nothing filled in. */
export const EMPTY_LIVE_ROW = {
  id: 1,
  notice_level: null,
  notice_de: null,
  notice_en: null,
  notice_es: null,
  status: null,
  start_time: null,
  end_time: null,
  stream_embed_url: null,
  recording_embed_url: null,
  recording_begins_at: null,
  updated_at: '2026-11-26T08:00:00+00:00',
};

/** What PostgREST answers for a table that is not there (the migration not applied). */
export const MISSING_TABLE = postgrestError(
  404,
  'PGRST205',
  "Could not find the table 'public.live_state' in the schema cache",
);
export const STALL: Reply = { kind: 'stall' };

/** A storage listing entry for a file, as storage-api returns it. */
export function fileEntry(name: string, mimetype = 'image/png') {
  return {
    name,
    id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
    updated_at: '2026-11-01T10:00:00.000Z',
    created_at: '2026-11-01T10:00:00.000Z',
    last_accessed_at: '2026-11-01T10:00:00.000Z',
    metadata: {
      eTag: '"abc"',
      size: 1234,
      mimetype,
      cacheControl: 'max-age=3600',
      lastModified: '2026-11-01T10:00:00.000Z',
      contentLength: 1234,
      httpStatusCode: 200,
    },
  };
}

/** A folder entry: everything but the name is null. */
export function folderEntry(name: string) {
  return { name, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null };
}

const PUBLIC_OBJECTS = '/storage/v1/object/public/';
/** A whole 1×1 PNG, which every browser decodes (a cut one makes WebKit log a failed load). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export async function startFakeSupabase(): Promise<FakeSupabase> {
  const calls: Record<Route, number> = { heroImages: 0, logoList: 0, liveRows: 0 };
  const requests: RecordedRequest[] = [];
  const holds: Partial<Record<Route, Promise<void>>> = {};
  const waiters: Array<{ route: Route; count: number; resolve: () => void }> = [];
  let url = '';

  const fake: FakeSupabase = {
    url: '',
    key: FAKE_KEY,
    calls,
    requests,
    reply: { heroImages: json({}), logoList: json([]), liveRows: rows(EMPTY_LIVE_ROW) },
    hold(route) {
      let release!: () => void;
      holds[route] = new Promise<void>((resolve) => (release = resolve));
      return () => {
        delete holds[route];
        release();
      };
    },
    received(route, count) {
      if (calls[route] >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ route, count, resolve }));
    },
    image: (name) => `${url}${PUBLIC_OBJECTS}hero/${name}`,
    objects: new Map(),
    objectRequests: new Map(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const { pathname: path, search } = new URL(req.url ?? '/', 'http://fake');
    const route: RecordedRequest['route'] =
      req.method === 'POST' && path === '/functions/v1/hero-images'
        ? 'heroImages'
        : req.method === 'POST' && path === '/storage/v1/object/list/logo'
          ? 'logoList'
          : req.method === 'GET' && path === '/rest/v1/live_state'
            ? 'liveRows'
            : req.method === 'GET' && path.startsWith('/storage/v1/object/public/')
              ? 'publicObject'
              : 'other';
    requests.push({ route, method: req.method ?? '', path, search, headers: req.headers, body });

    if (route === 'publicObject') {
      const name = path.slice(PUBLIC_OBJECTS.length);
      fake.objectRequests.set(name, (fake.objectRequests.get(name) ?? 0) + 1);
      const object = fake.objects.get(name) ?? { body: PNG, contentType: 'image/png' };
      if ('kind' in object) return;
      return void res
        .writeHead(object.status ?? 200, { 'Content-Type': object.contentType, 'Content-Length': object.body.length })
        .end(object.body);
    }
    if (route === 'other') return void sendJson(res, 404, { message: 'no such route in the fake' });

    calls[route] += 1;
    for (const waiter of waiters.filter((w) => w.route === route && calls[route] >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (req.headers.apikey !== FAKE_KEY) {
      return void sendJson(res, 401, {
        message: req.headers.apikey ? 'Invalid API key' : 'No API key found in request',
      });
    }
    await holds[route];
    await answer(res, fake.reply[route]);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = url;
  return fake;
}

async function answer(res: ServerResponse, reply: Reply): Promise<void> {
  if (reply.kind === 'hang') return;
  if (reply.kind === 'stall') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"heroSlides":[');
    return;
  }
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (res.destroyed) return;
  if (reply.kind === 'json') return sendJson(res, reply.status ?? 200, reply.body, reply.contentType);
  const headers: Record<string, string | number> = {
    'Content-Type': reply.contentType ?? 'text/plain',
    ...reply.headers,
  };
  if (!reply.withoutLength) headers['Content-Length'] = Buffer.byteLength(reply.body);
  res.writeHead(reply.status ?? 200, headers);
  res.end(reply.body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) }).end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
