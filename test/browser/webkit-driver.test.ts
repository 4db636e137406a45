import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentEngineName } from './driver/engines.ts';
import { VisitorLine } from './driver/line.ts';
import { launchWebKit } from './driver/webkit.ts';

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
