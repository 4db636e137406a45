// @vitest-environment happy-dom
import { act } from 'react';
import type { Root } from 'react-dom/client';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { boot } from '../../client/boot.tsx';
import { tempSnapshotPath } from '../helpers/backend.ts';
import { failure, json, startFakeSupabase, type FakeSupabase } from '../../scripts/harness/fake-supabase.ts';
import { editedContent } from '../helpers/content-file.ts';
import { jsonResponse, renderApp } from '../helpers/render-client.tsx';
import { startServer, type RunningServer } from '../../scripts/harness/server-process.ts';
import { consoleCalls } from '../setup.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const label = () => document.querySelector('.hero__studio');
const slides = [
  { image: 'https://project.supabase.co/storage/v1/object/public/hero/wien.jpg', studio: 'Studio Wien' },
  { image: 'https://project.supabase.co/storage/v1/object/public/hero/zurich.jpg', studio: 'Studio Zürich' },
];
/** Lets the request and the render it causes finish. */
const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  vi.unstubAllGlobals();
});

describe('the studio under the date', () => {
  const renamed = editedContent((file) => {
    file.studios[0].localized.en.name = 'Munich Studio';
    file.studios[0].localized.es.name = 'Estudio Múnich';
  });

  it.each([
    ['de', 'Studio München'],
    ['en', 'Munich Studio'],
    ['es', 'Estudio Múnich'],
  ] as const)('of a content slide is named in the page’s language (%s)', (language, name) => {
    ({ root } = renderApp({ language, content: renamed }));
    expect(label()!.textContent).toBe(name);
  });

  it('of a backend slide is the label the backend sent, in every language', () => {
    ({ root } = renderApp({ language: 'en', content: renamed, heroSlides: slides }));
    expect(label()!.textContent).toBe('Studio Wien');
  });
});

describe('slides the server did not know', () => {
  it('are asked once from /api/hero-slides and shown', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ heroSlides: slides }));
    vi.stubGlobal('fetch', fetchMock);
    ({ root } = renderApp({ heroSlides: null }));
    expect(label()!.textContent).toBe('Studios werden geladen...');
    await flush();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]).toEqual(['/api/hero-slides', expect.anything()]);
    expect(label()!.textContent).toBe('Studio Wien');
    expect(document.querySelector('.hero__slide.is-active')!.getAttribute('src')).toBe(slides[0]!.image);
    expect(document.querySelectorAll('.hero__slide')).toHaveLength(2);
  });

  it('known to be none after an empty answer: no label, the plain gradient', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ heroSlides: [] })),
    );
    ({ root } = renderApp({ heroSlides: null }));
    await flush();
    expect(label()).toBeNull();
    expect(document.querySelector('.hero__slides--empty')).not.toBeNull();
  });

  it.each([
    ['an error status', async () => new Response('{}', { status: 503 })],
    ['a network failure', async () => Promise.reject(new TypeError('Failed to fetch'))],
    ['an answer of the wrong shape', async () => jsonResponse({ heroSlides: [{ image: 1 }] })],
  ])('after %s: a console warning, and no "Loading studios..." left standing', async (_, answer) => {
    const warned = consoleCalls('warn');
    vi.stubGlobal('fetch', vi.fn(answer));
    ({ root } = renderApp({ heroSlides: null }));
    await flush();
    expect(label()).toBeNull();
    expect(warned).toHaveLength(1);
    expect(String(warned[0]![0])).toBe('Failed to load hero slides:');
  });

  it('are not asked for when the server sent them, even an empty list', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ heroSlides: slides }));
    vi.stubGlobal('fetch', fetchMock);
    ({ root } = renderApp({ heroSlides: [] }));
    await flush();
    ({ root } = renderApp());
    await flush();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('the built server with a backend that failed at first', () => {
  let fake: FakeSupabase;
  let server: RunningServer;
  beforeAll(async () => {
    fake = await startFakeSupabase();
    server = await startServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: fake.key,
      CACHE_SNAPSHOT_PATH: tempSnapshotPath(),
    });
  });
  afterAll(async () => {
    await server.stop();
    await fake.close();
  });

  it('sends a page without slides, whose browser gets them from /api/hero-slides once the backend is back', async () => {
    fake.reply.heroImages = failure(500);
    fake.reply.logoList = json([]);
    const res = await request(server.url).get('/').set('Cookie', 'selectedLanguage=en');
    const parsed = new DOMParser().parseFromString(res.text, 'text/html');
    document.documentElement.lang = parsed.documentElement.lang;
    document.head.innerHTML = parsed.head.innerHTML;
    document.body.innerHTML = parsed.body.innerHTML;
    vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(true);
    vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(240);
    expect(label()!.textContent).toBe('Loading studios...');

    const backSlides = [{ image: fake.image('munich.jpg'), studio: 'Studio München' }];
    fake.reply.heroImages = json({ heroSlides: backSlides });
    // The browser's request goes to the same server, through Node's HTTP client.
    const fetchMock = vi.fn(async (path: string) => {
      const answer = await request(server.url).get(path);
      return new Response(answer.text, {
        status: answer.status,
        headers: { 'Content-Type': answer.headers['content-type']! },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await act(async () => {
      root = boot(document); // in StrictMode, as in production
    });
    for (let tries = 0; tries < 100 && label()!.textContent !== 'Studio München'; tries++) await flush();
    expect(label()!.textContent).toBe('Studio München');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The server has yet to make its pictures of the photo: the gradient, never the backend's own address.
    expect(document.querySelector('.hero__slide')).toBeNull();
    expect(document.body.innerHTML).not.toContain(fake.url);
  });
});
