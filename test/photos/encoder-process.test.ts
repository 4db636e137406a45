import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { encodePhoto } from '../../server/photos/encode.ts';
import { encoderProcess, type PhotoEncoder } from '../../server/photos/encoder-process.ts';
import { PhotoError, PIXEL_LIMITS, type Rendition } from '../../server/photos/photo-encoding.ts';
import { PHOTO, smallPhoto } from '../helpers/photos.ts';
import { processesWhere } from '../helpers/processes.ts';

const NODE = process.execPath;
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

/** A JPEG limit no other encoder has: it names this test's encoders among the machine's processes. */
const marker = () => 49_000_000 + Math.floor(Math.random() * 999_999);

/** The pids of the encoders started with this marker. */
const encodersMarked = (mark: number) => processesWhere((args) => args.some((arg) => arg.includes(`"jpeg":${mark}`)));

/** The count of the encoders started with this marker, asked until it is as expected or 5 s have passed. */
const encoderCount = (mark: number, message?: string) =>
  expect.poll(() => encodersMarked(mark).length, { timeout: 5000, message });

const encoders: PhotoEncoder[] = [];
function encoder(options: { mark?: number; idleMs?: number; timeoutMs?: number; module?: URL } = {}): PhotoEncoder {
  const made = encoderProcess({
    limits: { maxPixels: { ...PIXEL_LIMITS, jpeg: options.mark ?? PIXEL_LIMITS.jpeg } },
    idleMs: options.idleMs ?? 10_000,
    timeoutMs: options.timeoutMs ?? 15_000,
    module: options.module,
  });
  encoders.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(encoders.splice(0).map((made) => made.close()));
});

describe('the photo encoder, a process of its own', () => {
  it('makes the same pictures as sharp makes in the server itself', async () => {
    const input = await smallPhoto();
    const here = await encodePhoto(input, 'slide', { maxPixels: PIXEL_LIMITS });
    const there = await encoder().encode(input, 'slide');
    const plans = (renditions: Rendition[]) =>
      renditions.map(({ crop, format, width, height }) => ({ crop, format, width, height }));
    expect(plans(there)).toEqual(plans(here));
    for (const [index, rendition] of there.entries()) {
      expect(Buffer.isBuffer(rendition.bytes)).toBe(true);
      expect(rendition.bytes.equals(here[index]!.bytes)).toBe(true);
    }
  });

  it('says why a photo cannot be used, as the PhotoError sharp gave', async () => {
    const made = encoder();
    const failure = await made
      .encode(Buffer.from('<html>not a photo</html>'), 'slide')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PhotoError);
    expect((failure as Error).message).toMatch(/^not an image sharp can read/);
    // And the next photo is made by the same encoder.
    expect((await made.encode(await smallPhoto(), 'logo')).length).toBeGreaterThan(0);
  });

  it('applies the limits it was given', async () => {
    const failure = await encoder({ mark: 1_000_000 })
      .encode(PHOTO, 'slide')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PhotoError);
    expect((failure as Error).message).toBe('1600 × 900 pixels, more than the 1000000 a jpeg photo may have');
  });

  it('starts with a photo, stays for the next one, and ends once idle', async () => {
    const mark = marker();
    const made = encoder({ mark, idleMs: 300 });
    expect(encodersMarked(mark)).toEqual([]);
    await made.encode(await smallPhoto(), 'slide');
    const [first] = encodersMarked(mark);
    expect(first).toBeDefined();
    await made.encode(await smallPhoto('#224466'), 'slide');
    expect(encodersMarked(mark), 'the same encoder made the second photo').toEqual([first]);
    await encoderCount(mark, 'it ended once idle').toBe(0);
    await made.encode(await smallPhoto(), 'logo');
    expect(encodersMarked(mark), 'the next photo starts another').toHaveLength(1);
    expect(encodersMarked(mark)).not.toEqual([first]);
  });

  it('runs with one malloc arena, whatever the server runs with', async () => {
    const server = process.env.MALLOC_ARENA_MAX;
    process.env.MALLOC_ARENA_MAX = '2';
    try {
      const telling = encoder({ module: fixture('environment-encoder.ts') });
      await expect(telling.encode(await smallPhoto(), 'slide')).rejects.toThrow('MALLOC_ARENA_MAX=1');
    } finally {
      if (server === undefined) delete process.env.MALLOC_ARENA_MAX;
      else process.env.MALLOC_ARENA_MAX = server;
    }
  });

  it('fails only the photo it was making when it crashes, and the next photo starts another', async () => {
    const crashing = encoder({ module: fixture('crashing-encoder.ts') });
    await expect(crashing.encode(await smallPhoto(), 'slide')).rejects.toThrow('the photo encoder stopped (SIGSEGV)');
    await expect(crashing.encode(await smallPhoto(), 'slide')).rejects.toThrow('the photo encoder stopped (SIGSEGV)');
  });

  it('is killed when a photo takes longer than its deadline, and the next photo starts another', async () => {
    const mark = marker();
    const hanging = encoder({ mark, module: fixture('hanging-encoder.ts'), timeoutMs: 300 });
    await expect(hanging.encode(await smallPhoto(), 'slide')).rejects.toThrow(
      'the photo encoder took longer than 0.3 s',
    );
    await encoderCount(mark, 'the hung encoder is gone').toBe(0);
    await expect(hanging.encode(await smallPhoto(), 'slide')).rejects.toThrow(
      'the photo encoder took longer than 0.3 s',
    );
  });

  it('fails the photo it was making when it is closed, and makes the next one', async () => {
    const made = encoder();
    const making = made.encode(PHOTO, 'slide');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await made.close();
    await expect(making).rejects.toThrow(/^the photo encoder stopped/);
    expect((await made.encode(await smallPhoto(), 'slide')).length).toBeGreaterThan(0);
  });
});

describe("the photo encoder and the server's process", () => {
  /** Runs test/photos/fixtures/encode-once.ts; `said(line)` waits until it has written that line. */
  function encodeOnce(mark: number, then: 'exit' | 'hang') {
    const child = spawn(NODE, [fileURLToPath(fixture('encode-once.ts')), String(mark), then], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
    const said = (line: string) => expect.poll(() => output.split('\n'), { timeout: 15_000 }).toContain(line);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, said };
  }

  it('does not keep the process alive once idle', async () => {
    const mark = marker();
    const { said, exited } = encodeOnce(mark, 'exit');
    await said('made 14');
    // Its idle time is a minute: the process ends at once all the same, and so does the encoder.
    const ended = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 5000)),
    ]);
    expect(ended).toBe(0);
    await encoderCount(mark).toBe(0);
  });

  it('ends when the process it works for is killed, idle or making a photo', async () => {
    for (const moment of ['idle', 'making'] as const) {
      const mark = marker();
      const { child, said, exited } = encodeOnce(mark, 'hang');
      await said(moment === 'idle' ? 'made 14' : 'making');
      await encoderCount(mark).toBe(1);
      child.kill('SIGKILL');
      await exited;
      await encoderCount(mark, `no encoder is left behind (${moment})`).toBe(0);
    }
  });
});
