import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { HeroPhotos } from '../photos/hero-photos.ts';
import type { HeroSource } from './hero-source.ts';

/** The longest a replica waits for its hero's pictures at start before it takes visitors anyway. */
export const START_PICTURES_TIMEOUT_MS = 30_000;

/**
 * The pictures of the photos the hero shows now, made before the replica takes visitors
 * (Readiness.holdUntil): its first pages show them, not the gradient, and the encoder has given
 * its memory back before the crowd's requests come. Asking the source starts their making; once
 * each is made or has failed, the encoder is let go. Resolves within `timeoutMs` whatever the
 * backend does: what is left is made meanwhile.
 */
export async function makeStartPictures(
  source: HeroSource,
  { photos, encoder }: Pick<HeroPhotos, 'photos' | 'encoder'>,
  { timeoutMs, logger }: { timeoutMs: number; logger: Logger },
): Promise<void> {
  const started = performance.now();
  const made = (async () => {
    await source.get();
    await photos.settled();
    // Nothing is being made now (settled): the encoder ends before any request can start another.
    await encoder.close();
  })().then(
    () => ({ made: true }) as const,
    (error: unknown) => ({ made: false, error }) as const,
  );
  const outcome = await Promise.race([made, sleep(timeoutMs, null, { ref: false })]);
  const ms = Math.round(performance.now() - started);
  if (!outcome)
    logger.warn({ ms }, 'hero pictures not all made at the start: taking visitors, the rest are made meanwhile');
  else if (outcome.made) logger.info({ ms }, 'hero pictures made: taking visitors');
  else logger.warn({ ms, err: outcome.error }, 'hero pictures of the start failed: taking visitors');
}
