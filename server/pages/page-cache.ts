import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { PageAssets } from '../../shared/page-data.ts';
import type { EncodedBody } from '../http/content-coding.ts';
import { entityTag } from '../http/entity-tag.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** One rendered page, kept in each encoding it is served in. */
export interface CachedPage extends EncodedBody {
  etag: string;
}

/**
 * Rendered, compressed HTML per page variant (page, language, whether the overlay shows),
 * one version per variant: the backend data the page shows and, on the landing page, the
 * event clock's step. Nothing per visitor is in the bytes, so every visitor with the same
 * variant gets the same ones. Concurrent misses share one render; a failed render is not
 * kept. A request for another version renders it and it takes the variant's place, so the
 * cache never holds more pages than there are variants.
 */
/** A variant's page of one version: being rendered, and once encoded, ready to be sent as it is. */
interface KeptPageEntry {
  version: string;
  page: Promise<CachedPage>;
  ready?: CachedPage;
}

export class PageCache {
  private readonly pages = new Map<string, KeptPageEntry>();

  get(variant: string, version: string, render: () => Promise<Buffer>): Promise<CachedPage> {
    const kept = this.pages.get(variant);
    if (kept?.version === version) return kept.page;
    const page = render().then(encodeAll);
    const entry: KeptPageEntry = { version, page };
    this.pages.set(variant, entry);
    page.then(
      (ready) => {
        entry.ready = ready;
      },
      () => {
        if (this.pages.get(variant) === entry) this.pages.delete(variant);
      },
    );
    return page;
  }

  /** The variant's page of this version if it is rendered and encoded already; nothing is rendered. */
  ready(variant: string, version: string): CachedPage | undefined {
    const kept = this.pages.get(variant);
    return kept?.version === version ? kept.ready : undefined;
  }
}

async function encodeAll(html: Buffer): Promise<CachedPage> {
  const [br, gz] = await Promise.all([
    brotli(html, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
        // A window the size of the page, not the default 4 MB: same bytes, a fraction of the memory.
        [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(html.length + 1)))),
      },
    }),
    gzipAsync(html, { level: 9 }),
  ]);
  return {
    etag: entityTag(html, 'weak'),
    identity: html,
    br,
    gzip: gz,
  };
}

/**
 * A short name for the data a page shows besides the content file: it changes exactly
 * when the cached backend data does. The backend cache hands out the same objects until
 * an entry changes, so the hash is only computed then.
 */
export function contentVersioner(): (assets: PageAssets) => string {
  let last: PageAssets | null = null;
  let version = '';
  return (assets) => {
    if (!last || assets.heroSlides !== last.heroSlides || assets.logoUrl !== last.logoUrl) {
      last = assets;
      version = createHash('sha256')
        .update(JSON.stringify([assets.heroSlides, assets.logoUrl]))
        .digest('base64url');
    }
    return version;
  };
}
