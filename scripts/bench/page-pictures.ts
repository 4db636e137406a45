import { bytesOfPhoto, madePicture, type Transfer } from './bytes-by-kind.ts';

/** The photos a page shows as pictures the server made: each slide's (in the slides' order) and the logo's, by hash. */
export interface PagePictures {
  slides: string[];
  logo: string | null;
}

/**
 * The made pictures a page names, anywhere in it (the first slide's `<picture>` and preloads, and
 * the hydration data with every slide): a slide or a logo whose photo is not made yet names none.
 */
export function pagePictures(html: string): PagePictures {
  const slides = new Set<string>();
  let logo: string | null = null;
  for (const [address] of html.matchAll(/\/images\/photos\/[\w-]+\.\w+/g)) {
    const made = madePicture(address);
    if (made?.of === 'slide') slides.add(made.photoHash);
    else if (made?.of === 'logo') logo ??= made.photoHash;
  }
  return { slides: [...slides], logo };
}

export interface PictureWait {
  /** The slides whose pictures the page must name. */
  slides: number;
  /** Whether it must name the logo's too. */
  logo: boolean;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** What the server has logged about its photos, for the error. */
  photoLog?: () => string[];
  /** The photos the server has logged it cannot make: the wait fails at the first. */
  refused?: () => string[];
}

/**
 * Asks for `pageUrl` until it names the made pictures of `slides` slides (and of the logo): the
 * server makes them in the background and renders its pages without them until then. Throws
 * after `timeoutMs`, or as soon as the server says it cannot make one, saying what the page named
 * and what the server logged.
 */
export async function waitForPictures(pageUrl: string, wait: PictureWait): Promise<PagePictures> {
  const deadline = Date.now() + wait.timeoutMs;
  for (;;) {
    const page = await fetch(pageUrl, { headers: wait.headers ?? {} });
    if (page.status !== 200) throw new Error(`GET ${pageUrl} answered ${page.status}`);
    const named = pagePictures(await page.text());
    if (named.slides.length >= wait.slides && (!wait.logo || named.logo)) return named;
    const refused = wait.refused?.() ?? [];
    if (refused.length || Date.now() >= deadline) {
      const log = refused.length ? refused : (wait.photoLog?.() ?? []);
      throw new Error(
        `${pageUrl} named the made pictures of ${named.slides.length} of ${wait.slides} slides` +
          (wait.logo ? ` and ${named.logo ? 'the' : 'no'} logo` : '') +
          (refused.length
            ? ': the server cannot make pictures of every photo'
            : ` after ${wait.timeoutMs / 1000} s: the server did not make its pictures of every photo in time`) +
          (log.length ? `; it logged:\n  ${log.join('\n  ')}` : ', and logged nothing about them'),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Why a visit did not show the backend's photos as the server made them (none when it did): the
 * first slide's or the logo's pictures never arrived, or the browser asked the backend itself.
 */
export function photoVisitProblems(
  transfers: readonly Transfer[],
  pictures: PagePictures,
  backendOrigin: string,
): string[] {
  const problems: string[] = [];
  const first = pictures.slides[0];
  if (!first) problems.push('the page named no made picture of any slide');
  else if (bytesOfPhoto(transfers, first) === 0) problems.push("no picture of the first slide's photo was fetched");
  if (pictures.logo && bytesOfPhoto(transfers, pictures.logo) === 0)
    problems.push("the logo's picture was not fetched");
  const fromBackend = transfers.filter(
    (transfer) => URL.canParse(transfer.url) && new URL(transfer.url).origin === backendOrigin,
  );
  if (fromBackend.length) {
    problems.push(
      `the browser fetched ${fromBackend.length} file(s) from the backend itself: ${fromBackend.map((t) => new URL(t.url).pathname).join(', ')}`,
    );
  }
  return problems;
}
