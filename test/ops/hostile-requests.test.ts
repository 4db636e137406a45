import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../server/ops/http-server.ts';
import { testApp } from '../helpers/app.ts';
import { rawGet, rawRequest, type RawAnswer } from '../helpers/raw-http.ts';

let server: Server;
let port: number;
let logLines: Record<string, unknown>[];
beforeAll(async () => {
  const built = await testApp({}, { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://event.example.com' });
  logLines = built.logLines;
  server = createHttpServer(built.app, built.deps.config);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** What no answer may ever contain: files from outside the served folders. */
const LEAKS = ['"dependencies"', 'root:x:0', 'PUBLIC_ORIGIN', 'createApp', '"placeholder"', 'node_modules'];

interface Case {
  /** The request target, sent byte for byte. */
  path: string;
  headers?: string[];
  method?: string;
  /** The status it must get. */
  status: number;
}

const traversal = (path: string): Case => ({ path, status: 404 });
const malformed = (path: string): Case => ({ path, status: 400 });
const german = (path: string, headers: string[] = []): Case => ({ path, headers, status: 200 });
const notAllowed = (method: string, path: string): Case => ({ method, path, status: 405 });

const CASES: Case[] = [
  // Path traversal on /locales, plain and encoded: no path is built from the request there.
  traversal('/locales/../package.json'),
  traversal('/locales/..%2f..%2fpackage.json'),
  traversal('/locales/%2e%2e/%2e%2e/package.json'),
  traversal('/locales/%252e%252e%252fpackage.json'),
  traversal('/locales/de/..%2F..%2Fpackage.json'),
  traversal('/locales/de%2F..%2F..%2Fpackage.json/translation.json'),
  traversal('/locales/..\\..\\package.json'),
  traversal('/locales/%5c..%5cpackage.json'),
  traversal('/locales/..;/package.json'),
  traversal('/locales/de%00/translation.json'),
  traversal('/locales/__proto__/translation.json'),
  traversal('/locales/constructor/translation.json'),
  traversal('/locales/prototype/translation.json'),
  traversal('/locales/DE/translation.json'),
  traversal('/locales/de-DE/translation.json'),
  traversal('/locales/de/../en/translation.json'),
  traversal('/locales/%EF%BC%8E%EF%BC%8E%EF%BC%8Fpackage.json'),
  traversal('/locales/de/translation.json%00'),
  traversal(`/locales/${'a'.repeat(129)}/translation.json`),
  // Path traversal on static files, plain and encoded.
  traversal('/images/../package.json'),
  traversal('/images/..%2f..%2fpackage.json'),
  traversal('/images/%2e%2e/%2e%2e/package.json'),
  traversal('/images/..%5c..%5cpackage.json'),
  traversal('/images/%252e%252e/package.json'),
  traversal('/images/studios/munich-480.jpg%00.png'),
  traversal('/images/%00'),
  traversal('/assets/../../package.json'),
  traversal('/assets/..%2f..%2fpackage.json'),
  traversal('/assets/%2e%2e%2fmanifest.json'),
  traversal('/favicon.svg/..%2f..%2fpackage.json'),
  traversal('/../../../../etc/passwd'),
  traversal('/%2e%2e/%2e%2e/%2e%2e/etc/passwd'),
  // Files of the project that are not public.
  traversal('/.env'),
  traversal('/.git/config'),
  traversal('/package.json'),
  traversal('/server/config/environment.ts'),
  traversal('/content/event.json'),
  traversal('/dist/server/index.js'),
  traversal('/node_modules/express/package.json'),
  traversal(`/${'-a'.repeat(4000)}`),
  // Malformed percent-encoding.
  malformed('/%'),
  malformed('/%E0%A4%A'),
  malformed('/%zz'),
  malformed('/impressum%'),
  malformed('/assets/%'),
  malformed('/images/%'),
  malformed('/locales/%/translation.json'),
  malformed('/locales/de/%E0%A4%A.json'),
  malformed('/%c0%ae%c0%ae/'),
  malformed('/%ff'),
  // Would-be open redirects: nothing redirects, least of all off the site.
  traversal('//evil.example'),
  traversal('//evil.example/%2e%2e'),
  traversal('/\\evil.example'),
  traversal('/\\/evil.example'),
  traversal('/%2F%2Fevil.example'),
  traversal('/%5C%5Cevil.example/'),
  traversal('/images//evil.example'),
  traversal('//images'),
  traversal('/images'),
  traversal('/images/'),
  traversal('/assets'),
  german('/?lng=//evil.example'),
  // Language codes that are not de, en or es fall back to German.
  german('/?lng=../../etc/passwd'),
  german('/?lng=%3Cscript%3Ealert(1)%3C/script%3E'),
  german('/?lng[]=en'),
  german('/?lng=en&lng=es'),
  german('/?lng=%E0%A4%A'),
  german('/', ['Cookie: selectedLanguage=__proto__']),
  german('/', ['Cookie: selectedLanguage=../en']),
  german('/', [`Cookie: ${'x='.repeat(3000)}`]),
  // Odd headers.
  german('/', ['Accept-Language: ' + 'xx-YY,'.repeat(1500)]),
  german('/', ['Accept-Encoding: %%%, ;q=x']),
  german('/', ['If-None-Match: "unterminated']),
  german('/', ['X-Request-Id: x"}{"level":60}']),
  german('/', ['X-Forwarded-For: not-an-address, 999.1.1.1']),
  german('/', ['X-Forwarded-Proto: javascript', 'X-Forwarded-Host: evil.example']),
  { path: '/images/studios/munich-480.jpg', headers: ['Range: bytes=99999999-'], status: 416 },
  { path: '/images/studios/munich-480.jpg', headers: ['Range: bytes=abc'], status: 200 },
  { path: '/', headers: [`X-Big: ${'a'.repeat(17 * 1024)}`], status: 431 },
  { path: '/', headers: Array.from({ length: 600 }, (_, i) => `X-H${i}: ${'b'.repeat(30)}`), status: 431 },
  // Methods other than GET and HEAD.
  notAllowed('POST', '/'),
  notAllowed('PUT', '/impressum'),
  notAllowed('DELETE', '/locales/de/translation.json'),
  notAllowed('PATCH', '/assets/client.js'),
  notAllowed('OPTIONS', '/'),
  notAllowed('TRACE', '/'),
  notAllowed('POST', '/api/hero-slides'),
];

describe('hostile requests', () => {
  it.each(
    CASES.map(
      (c) =>
        [
          `${c.method ?? 'GET'} ${c.path.slice(0, 60)}${c.headers?.length ? ` + ${c.headers[0]!.slice(0, 40)}` : ''}`,
          c,
        ] as const,
    ),
  )('%s gets a clean answer', async (_name, { path, headers, method, status }) => {
    const answer = await rawGet(port, path, headers, method);
    expect(answer.status).toBe(status);
    for (const leak of LEAKS) expect(answer.body).not.toContain(leak);
    expect(answer.headers.location).toBeUndefined();
    if (status === 200 && path.startsWith('/') && !path.startsWith('/images')) {
      expect(answer.body).toContain('<html lang="de" dir="ltr">');
      expect(answer.body).not.toContain('<script>alert');
    }
    if (status === 405) expect(answer.headers.allow).toBe('GET, HEAD');
  });

  it('never produced an unexpected error', () => {
    expect(logLines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('leave the server serving', async () => {
    expect((await rawGet(port, '/')).status).toBe(200);
  });
});

describe('request headers', () => {
  it('up to the limit are read; over it, the answer is 431', async () => {
    expect((await rawGet(port, '/locales/de/translation.json', [`X-Big: ${'a'.repeat(15 * 1024)}`])).status).toBe(200);
    expect((await rawGet(port, '/locales/de/translation.json', [`X-Big: ${'a'.repeat(16 * 1024)}`])).status).toBe(431);
  });

  it('are not read at all for a POST: the body is never buffered', async () => {
    const body = 'x'.repeat(1024 * 1024);
    const started = Date.now();
    const answer: RawAnswer = await rawRequest(
      port,
      ['POST / HTTP/1.1', 'Host: localhost', 'Connection: close', `Content-Length: ${body.length}`].join('\r\n'),
      body,
    );
    expect(answer.status).toBe(405);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
