import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_BUILD_DIR } from '../../server/config/paths.ts';
import { sendErrorPage } from '../../server/pages/render.tsx';
import { loadClientAssets } from '../../server/static/client-assets.ts';
import { setUpBrowsers } from './site.ts';

/**
 * The server's error page, as the page handler sends it when rendering fails (with the built
 * inline stylesheet): the built server cannot be made to fail on purpose, so a small app answers
 * every request with it.
 */
let server: Server;
let url: string;
beforeAll(async () => {
  const assets = loadClientAssets(CLIENT_BUILD_DIR);
  const app = express().get('/', (_request, response) =>
    sendErrorPage(response, new Error('The legal notice broke'), {
      language: 'de',
      assets,
      showErrorStack: false,
      rehearsal: null,
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const browsers = setUpBrowsers();

describe('the error page', () => {
  it('is shown in full, its heading and message readable', async () => {
    const visitor = await browsers.visitor(url);
    expect((await visitor.goto('/')).status).toBe(500);
    expect(await visitor.text('h1')).toBe('Unexpected Application Error!');
    expect(await visitor.isVisible('h1')).toBe(true);
    expect(await visitor.evaluate(() => getComputedStyle(document.body).visibility)).toBe('visible');
  });
});
