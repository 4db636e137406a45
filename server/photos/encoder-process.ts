import { fork, type ChildProcess } from 'node:child_process';
import { PhotoError, type EncodeLimits, type EncodePhoto, type Rendition } from './photo-encoding.ts';
import type { PhotoKind } from './renditions.ts';

/** Bundled beside the server (dist/server/encoder-child.js); from the sources, beside this file. */
const CHILD_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './encoder-child.ts' : './encoder-child.js',
  import.meta.url,
);

/**
 * The encoder's JavaScript heap: sharp's objects and the messages (the pictures' bytes are held
 * outside it). An encoder that needs more stops, and its photo fails.
 */
const MAX_HEAP_MB = 32;

export interface EncodeRequest {
  id: number;
  photo: Uint8Array;
  kind: PhotoKind;
}
export type EncodeAnswer =
  { id: number; renditions: Rendition[] } | { id: number; failure: { unusable: boolean; message: string } };

export interface PhotoEncoder {
  encode: EncodePhoto;
  /** Stops the encoder: a photo it was making fails. The next photo starts another. */
  close(): Promise<void>;
}

export interface EncoderProcessOptions {
  limits: EncodeLimits;
  /** How long the encoder is kept after its last photo, in case another follows. */
  idleMs: number;
  /** The longest one photo may take: an encoder that takes longer is stopped, and the photo fails. */
  timeoutMs: number;
  /** For tests: the encoder's module. */
  module?: URL;
}

interface Waiting {
  resolve: (renditions: Rendition[]) => void;
  reject: (error: Error) => void;
  deadline: NodeJS.Timeout;
}

interface Running {
  child: ChildProcess;
  waiting: Map<number, Waiting>;
  exited: Promise<void>;
}

/**
 * Makes photos in a process of its own. Nothing of sharp's reaches the server's process: not
 * its objects and callbacks, which left the shapes of the server's hottest objects generalised
 * and every answer slower afterwards (docs/speed.md), not the memory libvips leaves behind, and
 * not a crash on a photo made to crash a decoder. The encoder starts with a photo and ends once
 * idle for `idleMs`, so a server whose photos are made runs alone.
 */
export function encoderProcess({
  limits,
  idleMs,
  timeoutMs,
  module = CHILD_MODULE,
}: EncoderProcessOptions): PhotoEncoder {
  let running: Running | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 0;

  const stop = (encoder: Running) => {
    if (running === encoder) running = null;
    // Let go, and it ends itself; one that does not is killed.
    if (encoder.child.connected) encoder.child.disconnect();
    const kill = setTimeout(() => encoder.child.kill('SIGKILL'), 2000).unref();
    return encoder.exited.finally(() => clearTimeout(kill));
  };

  const failAll = (encoder: Running, reason: string) => {
    if (running === encoder) running = null;
    for (const { reject, deadline } of encoder.waiting.values()) {
      clearTimeout(deadline);
      reject(new Error(`the photo encoder ${reason}`));
    }
    encoder.waiting.clear();
  };

  /** An idle encoder does not keep the server's process alive; one making a photo does. */
  const holdProcess = (encoder: Running, hold: boolean) => {
    if (hold) {
      encoder.child.ref();
      encoder.child.channel?.ref();
    } else {
      encoder.child.unref();
      encoder.child.channel?.unref();
    }
  };

  const start = (): Running => {
    const child = fork(module, [JSON.stringify(limits)], {
      serialization: 'advanced',
      execArgv: [`--max-old-space-size=${MAX_HEAP_MB}`],
      // One malloc arena: libvips works on one thread here, and a second arena kept about 10 MB
      // of freed pixels (four camera photos peaked at 59-63 MB of the encoder's own, now 50).
      env: { ...process.env, MALLOC_ARENA_MAX: '1' },
      // Its stderr is the server's: libvips writes its warnings there.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let exited!: () => void;
    const encoder: Running = { child, waiting: new Map(), exited: new Promise((resolve) => (exited = resolve)) };
    child.on('message', (answer: EncodeAnswer) => {
      const waiting = encoder.waiting.get(answer.id);
      if (!waiting) return;
      clearTimeout(waiting.deadline);
      encoder.waiting.delete(answer.id);
      if ('renditions' in answer) waiting.resolve(answer.renditions.map(asBuffers));
      else
        waiting.reject(
          answer.failure.unusable ? new PhotoError(answer.failure.message) : new Error(answer.failure.message),
        );
      if (encoder.waiting.size === 0 && running === encoder) {
        holdProcess(encoder, false);
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => void stop(encoder), idleMs).unref();
      }
    });
    child.on('error', (error) => failAll(encoder, `cannot be reached (${error.message})`));
    child.on('exit', (code, signal) => {
      failAll(encoder, `stopped (${signal ?? `exit code ${code}`})`);
      exited();
    });
    return encoder;
  };

  return {
    encode(photo, kind) {
      clearTimeout(idleTimer);
      const encoder = (running ??= start());
      holdProcess(encoder, true);
      const id = nextId++;
      return new Promise<Rendition[]>((resolve, reject) => {
        // One that hangs would hold every photo after it: it is killed, and the next photo starts another.
        const deadline = setTimeout(() => {
          failAll(encoder, `took longer than ${timeoutMs / 1000} s`);
          encoder.child.kill('SIGKILL');
        }, timeoutMs);
        encoder.waiting.set(id, { resolve, reject, deadline });
        encoder.child.send({ id, photo, kind } satisfies EncodeRequest);
      });
    },
    async close() {
      clearTimeout(idleTimer);
      if (running) await stop(running);
    },
  };
}

/** A rendition as it arrives from the encoder, its bytes a Uint8Array: made a Buffer again. */
function asBuffers(rendition: Rendition): Rendition {
  const { bytes } = rendition;
  return { ...rendition, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}
