import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentEngineName } from './driver/engines.ts';
import { VisitorLine } from './driver/line.ts';
import { launchWebKit, startDisplay, stop } from './driver/webkit.ts';

/**
 * WebKit's driver layer on its own: a session that never opens fails the journey within a bound,
 * saying what the driver and the browser wrote, instead of holding it until its own timeout with
 * no tab to keep evidence of.
 */
describe.runIf(currentEngineName() === 'webkit')('a WebKit session that never opens', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'stuck-browser-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('fails within its bound, with what the driver and the browser wrote', async () => {
    const stuck = path.join(folder, 'MiniBrowser');
    // Answers --version as MiniBrowser does, then, as the browser, says one line and never opens.
    writeFileSync(
      stuck,
      '#!/bin/sh\n[ "$1" = --version ] && { echo "stand-in 0"; exit 0; }\necho "stand-in browser: stuck before its window" >&2\nexec sleep 30\n',
    );
    chmodSync(stuck, 0o755);
    const engine = await launchWebKit({ minibrowser: stuck, sessionWaitMs: 3000 });
    const line = await VisitorLine.open('http://127.0.0.1:9');
    try {
      const started = Date.now();
      const opening = engine.open(line, {});
      await expect(opening).rejects.toThrow(
        /did not open a session within 3 s\. .*stand-in browser: stuck before its window/s,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await line.close();
      await engine.close();
    }
  });
});

describe.runIf(currentEngineName() === 'webkit')('a WebKit visitor whose first page never loads', () => {
  it('gets another browser, once, whose page does', async () => {
    // The first request for the page that sets the visitor up is never answered; later ones are.
    let asked = 0;
    const site = http.createServer((request, response) => {
      if (request.url === '/favicon.svg' && asked++ === 0) return;
      response.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      response.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const engine = await launchWebKit({ pageLoadMs: 2000 });
    const line = await VisitorLine.open(`http://127.0.0.1:${(site.address() as AddressInfo).port}`);
    try {
      const tab = await engine.open(line, {});
      expect(asked).toBeGreaterThan(1);
      expect(await tab.evaluate(() => location.pathname, undefined)).toBe('/favicon.svg');
      await tab.close();
    } finally {
      await line.close();
      await engine.close();
      site.closeAllConnections();
      site.close();
    }
  }, 30_000);
});

/**
 * Opens a connection to the X display and sends the protocol's setup request, as every client
 * does first: true when the server accepts it, false when it refuses or drops the connection.
 */
function connectToDisplay(display: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(`/tmp/.X11-unix/X${display.slice(1)}`);
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(10_000, () => done(false));
    // Little-endian, protocol 11.0, no authorisation.
    socket.on('connect', () => socket.write(Buffer.from([0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0])));
    socket.once('data', (reply: Buffer) => done(reply[0] === 1));
    socket.on('error', () => done(false));
    socket.on('close', () => done(false));
  });
}

describe.runIf(currentEngineName() === 'webkit')('the display the browsers draw on', () => {
  it('accepts every client while others come and go, as visitors’ browsers do', async () => {
    const screen = await startDisplay();
    try {
      // Four at a time, each connecting and leaving at once: the display is often left empty.
      const refused = await Promise.all(
        Array.from({ length: 4 }, async () => {
          let count = 0;
          for (let i = 0; i < 250; i++) if (!(await connectToDisplay(screen.display))) count++;
          return count;
        }),
      );
      expect(refused).toEqual([0, 0, 0, 0]);
    } finally {
      await stop(screen.process);
    }
  });
});
