/** One response a browser received, as its network log has it. */
export interface Transfer {
  url: string;
  /** The browser's resource type, in Lighthouse's spelling ("Script") or Playwright's ("script"). */
  resourceType: string;
  mimeType?: string;
  /** Bytes on the wire, headers included. */
  bytes: number;
}

export const BYTE_KINDS = [
  'document',
  'script',
  'css',
  'font',
  'hero photos',
  'logo',
  'other images',
  'json/api',
  'other',
] as const;
export type ByteKind = (typeof BYTE_KINDS)[number];

/**
 * A picture the server made (server/photos/): `/images/photos/<photo hash>-<crop initial><width>.<format>`,
 * where the crop is l(andscape) or p(ortrait) for a slide and o for the logo.
 */
const MADE_PICTURE = /^\/images\/photos\/([\w-]{22})-([lpo])\d+\.\w+$/;

/** The photo a picture the server made was cut from, and whether it is a slide's or the logo's. */
export function madePicture(url: string): { photoHash: string; of: 'slide' | 'logo' } | null {
  const match = MADE_PICTURE.exec(pathOf(url));
  return match ? { photoHash: match[1]!, of: match[2] === 'o' ? 'logo' : 'slide' } : null;
}

export function kindOf(transfer: Transfer): ByteKind {
  const type = transfer.resourceType.toLowerCase();
  const mime = transfer.mimeType?.toLowerCase() ?? '';
  if (type === 'document') return 'document';
  if (type === 'script') return 'script';
  if (type === 'stylesheet') return 'css';
  if (type === 'font') return 'font';
  if (type === 'image' || mime.startsWith('image/')) {
    const made = madePicture(transfer.url);
    return made?.of === 'slide' ? 'hero photos' : made?.of === 'logo' ? 'logo' : 'other images';
  }
  if (type === 'fetch' || type === 'xhr' || mime.includes('json') || pathOf(transfer.url).startsWith('/api/')) {
    return 'json/api';
  }
  return 'other';
}

/** Bytes per kind (every kind, 0 where none), and the total. */
export function bytesByKind(transfers: readonly Transfer[]): Record<ByteKind | 'total', number> {
  const sums = Object.fromEntries([...BYTE_KINDS, 'total'].map((kind) => [kind, 0])) as Record<
    ByteKind | 'total',
    number
  >;
  for (const transfer of transfers) {
    sums[kindOf(transfer)] += transfer.bytes;
    sums.total += transfer.bytes;
  }
  return sums;
}

/** Bytes of the pictures made of one photo (a slide's, by its hash). */
export function bytesOfPhoto(transfers: readonly Transfer[], photoHash: string): number {
  return transfers
    .filter((transfer) => madePicture(transfer.url)?.photoHash === photoHash)
    .reduce((sum, transfer) => sum + transfer.bytes, 0);
}

export const kib = (bytes: number) => Math.round(bytes / 102.4) / 10;

function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : url;
}
