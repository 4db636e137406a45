import { fileEntry, json, PREFERRED_LOGO, startFakeSupabase, type FakeSupabase } from '../harness/fake-supabase.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { backendLogo, cameraPhoto, STUDIOS } from './camera-photos.ts';
import { waitForPictures, type PagePictures } from './page-pictures.ts';

export interface PhotoBackend {
  backend: FakeSupabase;
  /** Bytes of each photo the backend serves, by its storage name ("hero/munich.jpg", "logo/…"). */
  served: Record<string, number>;
}

/**
 * A Supabase stand-in on a loopback port of its own (another origin than the site's) serving the
 * hero's slides as a camera's 1920 × 1080 JPEGs of about 770 KB each, as grainy as a dim
 * studio's, and a 64 × 64 PNG logo.
 */
export async function startPhotoBackend(): Promise<PhotoBackend> {
  const backend = await startFakeSupabase();
  const served: Record<string, number> = {};
  const serve = (name: string, body: Buffer, contentType: string) => {
    backend.objects.set(name, { body, contentType });
    served[name] = body.length;
  };
  for (const studio of STUDIOS) serve(`hero/${studio}.jpg`, await cameraPhoto(studio), 'image/jpeg');
  serve(`logo/${PREFERRED_LOGO}`, await backendLogo(), 'image/png');
  backend.reply.heroImages = json({
    heroSlides: STUDIOS.map((studio) => ({ image: backend.image(`${studio}.jpg`), studio: `Studio ${studio}` })),
  });
  backend.reply.logoList = json([fileEntry(PREFERRED_LOGO)]);
  return { backend, served };
}

/** How long a server may take to make its pictures of these photos: about 10 s on the 2-core build machine. */
const PICTURES_TIMEOUT_MS = 120_000;

/**
 * Waits until the page `server` renders with `headers` names its pictures of every slide's photo
 * and of the logo (see waitForPictures); the server's log must be kept (startServer's default).
 */
export function madeByServer(server: RunningServer, headers: Record<string, string>): Promise<PagePictures> {
  return waitForPictures(`${server.url}/`, {
    slides: STUDIOS.length,
    logo: true,
    timeoutMs: PICTURES_TIMEOUT_MS,
    headers,
    photoLog: () => photoLines(server, /photo/),
    refused: () => photoLines(server, /^photo cannot be made/),
  });
}

function photoLines(server: RunningServer, message: RegExp): string[] {
  return server.logs.filter((entry) => message.test(String(entry.msg))).map((entry) => JSON.stringify(entry));
}
