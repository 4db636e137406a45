import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * The entity tag of a body: part of its SHA-256, so every replica gives the same tag for the same
 * bytes. Weak where one tag stands for the brotli, gzip and identity bodies alike (RFC 9110 8.8.1);
 * strong where each coding's bytes have their own.
 */
export function entityTag(body: Buffer | string, strength: 'strong' | 'weak'): string {
  const tag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return strength === 'weak' ? `W/${tag}` : tag;
}

/** Whether the answer carries a strong ETag, which no later step may keep for other bytes. */
export function hasStrongEntityTag(res: ServerResponse): boolean {
  const tag = res.getHeader('ETag');
  return typeof tag === 'string' && tag.startsWith('"');
}
