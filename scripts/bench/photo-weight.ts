import { launchBrowser } from '../harness/chromium.ts';
import { startServer } from '../harness/server-process.ts';
import { bytesByKind, bytesOfPhoto, type ByteKind } from './bytes-by-kind.ts';
import { photoVisitProblems } from './page-pictures.ts';
import { madeByServer, startPhotoBackend } from './photo-backend.ts';
import { returningVisit } from './photo-visit.ts';

export interface PhotoWeight {
  /** Bytes of each photo the backend serves, by its storage name. */
  served: Record<string, number>;
  byKind: Record<ByteKind | 'total', number>;
  firstSlideBytes: number;
  /** What was asked for while the first slide showed; null when the hero did not move. */
  beforeFirstRotation: Record<ByteKind | 'total', number> | null;
  /** What went wrong with the visit (see photoVisitProblems), and requests that failed. */
  problems: string[];
}

/**
 * The page weight of a returning visitor with the backend's photos: the server, with `env`, on a
 * backend of its own serving a camera's photos (photo-backend.ts), once it has made its pictures
 * of them, visited in Chromium as a phone with the language chosen and a cold cache.
 */
export async function measurePhotoWeight(env: Record<string, string>): Promise<PhotoWeight> {
  const { backend, served } = await startPhotoBackend();
  const server = await startServer({ ...env, SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.key }).catch(
    async (error: unknown) => {
      await backend.close();
      throw error;
    },
  );
  try {
    const pictures = await madeByServer(server, { cookie: 'selectedLanguage=en' });
    const browser = await launchBrowser();
    try {
      const visit = await returningVisit(browser, server.url);
      return {
        served,
        byKind: bytesByKind(visit.transfers),
        firstSlideBytes: bytesOfPhoto(visit.transfers, pictures.slides[0]!),
        beforeFirstRotation: visit.beforeFirstRotation && bytesByKind(visit.beforeFirstRotation),
        problems: [
          ...photoVisitProblems(visit.transfers, pictures, new URL(backend.url).origin),
          ...visit.failed.map((request) => `${request}, which the page asked for`),
        ],
      };
    } finally {
      await browser.close();
    }
  } finally {
    await Promise.all([server.stop(), backend.close()]);
  }
}
