/*
 * The photo encoder's process (encoder-process.ts): makes the pictures of each photo it is sent,
 * one message at a time, and answers with them or with why the photo cannot be used. It ends
 * when the server lets it go or is gone.
 */
import { encodePhoto } from './encode.ts';
import type { EncodeAnswer, EncodeRequest } from './encoder-process.ts';
import { PhotoError, type EncodeLimits } from './photo-encoding.ts';

const limits = JSON.parse(process.argv[2] ?? '') as EncodeLimits;

process.on('message', ({ id, photo, kind }: EncodeRequest) => {
  const input = Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength);
  encodePhoto(input, kind, limits).then(
    (renditions) => answer({ id, renditions }),
    (error: unknown) =>
      answer({
        id,
        failure: {
          unusable: error instanceof PhotoError,
          message: error instanceof Error ? error.message : String(error),
        },
      }),
  );
});
// Nobody is left to answer: it ends at once, with nothing to save. (process.exit runs libvips'
// shutdown first: an encoder that ended so was once found still there, minutes after its server.)
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

function answer(message: EncodeAnswer): void {
  process.send!(message);
}
