import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type * as fs from 'node:fs';
import { writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogOutput } from '../../server/ops/log-output.ts';

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof fs>();
  return { ...actual, writeSync: vi.fn(actual.writeSync) };
});
const writes = vi.mocked(writeSync);

/** A pipe as stdout is one, read by `cat`, whose output comes back here: what reached the reader. */
interface Reader {
  fd: number;
  /** Stops reading (SIGSTOP) until `resume`. */
  pause(): void;
  resume(): void;
  /** Ends the reader for good, as a log collector that went away. */
  close(): Promise<void>;
  /** Waits until `bytes` bytes have come through. */
  receivedBytes(bytes: number): Promise<string>;
}

const readers: ChildProcessByStdio<Writable, Readable, null>[] = [];
afterEach(() => {
  for (const cat of readers.splice(0)) {
    cat.kill('SIGCONT');
    cat.kill();
  }
});

function pipeReader(): Reader {
  const cat = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
  readers.push(cat);
  let received = '';
  cat.stdout.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  // The writing end of the pipe, non-blocking as Node opens it: the descriptor the server's stdout would be.
  const fd = (cat.stdin as unknown as { _handle: { fd: number } })._handle.fd;
  return {
    fd,
    pause: () => cat.kill('SIGSTOP'),
    resume: () => cat.kill('SIGCONT'),
    async close() {
      cat.kill('SIGKILL');
      await new Promise((resolve) => cat.once('exit', resolve));
    },
    async receivedBytes(bytes) {
      const deadline = Date.now() + 5000;
      while (Buffer.byteLength(received) < bytes) {
        if (Date.now() > deadline) throw new Error(`${Buffer.byteLength(received)} of ${bytes} bytes arrived`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received;
    },
  };
}

/** A line of the same length for every n below 10,000. */
const lineOf = (n: number, width = 100) => `{"n":${n},"pad":"${'x'.repeat(width - String(n).length)}"}\n`;
/** How many such lines one write of at most 4096 bytes carries. */
const LINES_PER_WRITE = Math.floor(4096 / lineOf(0).length);
const writesTo = (fd: number) => writes.mock.calls.filter(([to]) => to === fd).map(([, data]) => String(data));

describe('the log output', () => {
  it('writes the lines of a turn together once it ends, straight to the descriptor', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 64 * 1024 });
    const lines = Array.from({ length: 10 }, (_, n) => lineOf(n));
    for (const line of lines) output.write(line);
    expect(writesTo(reader.fd)).toEqual([]);

    await nextTurn();
    expect(writesTo(reader.fd)).toEqual([lines.join('')]);
    expect(await reader.receivedBytes(lines.join('').length)).toBe(lines.join(''));
  });

  it('writes whole lines of at most 4096 bytes at a time, each write as soon as it is full', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 64 * 1024 });
    const lines = Array.from({ length: 100 }, (_, n) => lineOf(n));
    for (const line of lines) output.write(line);
    // Two writes' worth went out within the turn: no more than one write's worth ever waits.
    expect(writesTo(reader.fd)).toEqual(
      [0, 1].map((n) => lines.slice(n * LINES_PER_WRITE, (n + 1) * LINES_PER_WRITE).join('')),
    );

    await nextTurn();
    const made = writesTo(reader.fd);
    expect(made).toHaveLength(3);
    for (const write of made) expect(Buffer.byteLength(write)).toBeLessThanOrEqual(4096);
    expect(made.join('')).toBe(lines.join(''));
    expect(await reader.receivedBytes(lines.join('').length)).toBe(lines.join(''));
  });

  it('keeps the order with a line too long for one write among them', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 64 * 1024 });
    const lines = [lineOf(1), lineOf(2, 6000), lineOf(3), lineOf(4)];
    for (const line of lines) output.write(line);
    await output.settle(5000);
    const all = lines.join('');
    expect(await reader.receivedBytes(all.length)).toBe(all);
  });

  it('keeps what the reader does not take, in order, drops and counts what does not fit, and writes the rest once it reads again', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 16 * 1024 });
    reader.pause();
    // More than the pipe (64 KiB) and the buffer hold together, over many turns.
    const lines = Array.from({ length: 1500 }, (_, n) => lineOf(n));
    for (let n = 0; n < lines.length; n++) {
      output.write(lines[n]!);
      if (n % 10 === 9) await nextTurn();
    }
    await nextTurn();
    expect(output.droppedLines()).toBeGreaterThan(0);

    reader.resume();
    await output.settle(5000);
    const kept = lines.length - output.droppedLines();
    const received = (await reader.receivedBytes(kept * lines[0]!.length)).split('\n').filter(Boolean);
    expect(received).toHaveLength(kept);
    // Whole lines, in the order written: what was dropped left no part of itself behind.
    const numbers = received.map((line) => (JSON.parse(line) as { n: number }).n);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers[0]).toBe(0);
  });

  it('catches up with a reader that paused, while each turn brings more than one write carries', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 256 * 1024 });
    // Ten writes' worth of lines after 5 ms of other work, as a busy server's turn: what waits is
    // written each turn, as much of it as the reader takes, not a write's worth at a time.
    const perTurn = Math.floor((10 * 4096) / lineOf(0).length);
    const lines = Array.from({ length: 100 * perTurn }, (_, n) => lineOf(n));
    const writeTurn = async (turn: number) => {
      const busyUntil = performance.now() + 5;
      while (performance.now() < busyUntil);
      for (const line of lines.slice(turn * perTurn, (turn + 1) * perTurn)) output.write(line);
      await nextTurn();
    };
    reader.pause();
    // More than the pipe holds (64 KiB): the rest waits.
    for (let turn = 0; turn < 3; turn++) await writeTurn(turn);
    reader.resume();
    for (let turn = 3; turn < 100; turn++) await writeTurn(turn);
    await output.settle(5000);

    expect(output.droppedLines()).toBe(0);
    const all = lines.join('');
    expect(await reader.receivedBytes(all.length)).toBe(all);
  });

  it('tries a reader that takes nothing once a turn, not once for every write it would make', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 1024 * 1024 });
    reader.pause();
    // The pipe (64 KiB) is full and lines wait.
    for (let n = 0; n < 1000; n++) output.write(lineOf(n));
    await nextTurn();
    const before = writesTo(reader.fd).length;

    // Forty writes' worth in one turn: each refused attempt would cost a thrown error.
    for (let n = 0; n < 40 * LINES_PER_WRITE; n++) output.write(lineOf(n));
    expect(writesTo(reader.fd).length - before).toBeLessThanOrEqual(1);
    await nextTurn();
    expect(writesTo(reader.fd).length - before).toBeLessThanOrEqual(2);

    reader.resume();
    await output.settle(5000);
    expect(output.droppedLines()).toBe(0);
  });

  it('writes a line the reader refused once it reads again, with no other line coming after it', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 64 * 1024 });
    reader.pause();
    // The pipe filled by someone else's lines: the next write is refused.
    const filler = `${'x'.repeat(4095)}\n`;
    let filled = 0;
    try {
      for (;;) filled += writeSync(reader.fd, filler);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
    }
    output.write(lineOf(1));
    await nextTurn();

    reader.resume();
    await output.settle(2000);
    const received = await reader.receivedBytes(filled + lineOf(1).length);
    expect(received.endsWith(lineOf(1))).toBe(true);
  });

  it('sends what a write left over before anything else, byte for byte, even within a character', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 64 * 1024 });
    const lines = ['{"msg":"Grüße aus München"}\n', lineOf(2), lineOf(3)];
    // The descriptor takes the first write only up to the middle of the "ü" (a socket may do that).
    const cut = Buffer.byteLength('{"msg":"Gr') + 1;
    writes.mockImplementationOnce((fd, data) => writeSync(fd, Buffer.from(String(data)).subarray(0, cut)));
    for (const line of lines) output.write(line);
    await nextTurn();
    output.write(lineOf(4));
    await output.settle(5000);
    const all = [...lines, lineOf(4)].join('');
    expect(await reader.receivedBytes(Buffer.byteLength(all))).toBe(all);
  });

  it('drops and counts every line once the reader has gone', async () => {
    const reader = pipeReader();
    const output = createLogOutput({ fd: reader.fd, bufferBytes: 64 * 1024 });
    await reader.close();
    for (let n = 0; n < 5; n++) output.write(lineOf(n));
    await output.settle(1000);
    output.write(lineOf(5));
    await nextTurn();
    expect(output.droppedLines()).toBe(6);
  });
});
