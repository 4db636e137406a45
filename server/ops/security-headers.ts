import helmet from 'helmet';
import type { Config } from '../config/environment.ts';
import { frameOrigins } from '../content/frame-origins.ts';
import type { SiteContent } from '../content/site-content.ts';

/** The CSP hash sources of the one inline script and the one inline style every page carries. */
export interface InlineHashes {
  script: string;
  style: string;
}

export interface ImageSources {
  /**
   * Whether pages name the backend's images at their own addresses. When the server makes the
   * hero's pictures itself (server/photos/), they come from 'self' and neither the backend nor
   * IMAGE_HOSTS is allowed.
   */
  backendImages: boolean;
}

/**
 * The Content-Security-Policy. Scripts come only from the site itself, and the one inline script
 * is the build's starter, allowed by the hash of its bytes (the page's data sits in a
 * `<script type="application/json">`, which is not executed), so no nonce is needed and the HTML
 * can be cached. Likewise the one inline style is the site's stylesheet, allowed by its hash; any
 * other inline script, `<style>` element, event handler or style attribute is refused (styles
 * React sets through the CSSOM are not subject to the policy). Frames and images are allowed
 * exactly from where the content file and the backend say they come; the backend's images only
 * where the server does not make its own pictures of them.
 */
export function contentSecurityPolicy(
  config: Config,
  content: SiteContent,
  inline: InlineHashes,
  { backendImages }: ImageSources,
): Record<string, string[]> {
  const file = content.raw;
  const images = [
    file.logo,
    ...file.heroSlides.flatMap((slide) => [slide.image, ...srcsetAddresses(slide.srcset)]),
    ...file.studios.flatMap(({ picture }) => [picture.src, ...srcsetAddresses(picture.srcset)]),
  ];
  const policy: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'${inline.script}'`],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", `'${inline.style}'`],
    'style-src-attr': ["'none'"],
    'img-src': [
      "'self'",
      ...originsOf([...images, backendImages ? config.backend?.url : null]),
      ...(backendImages ? config.imageHosts.map((host) => (host.includes('://') ? host : `https://${host}`)) : []),
    ],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'frame-src': frameOrigins(file),
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  // Only where the site is served over https: on http://localhost it would break every subresource.
  if (config.publicOrigin.startsWith('https:')) policy['upgrade-insecure-requests'] = [];
  return policy;
}

/**
 * Helmet with the policy above. Referrer-Policy keeps the origin for cross-origin requests,
 * which YouTube's embed needs (with no-referrer it shows an error). No
 * Cross-Origin-Embedder-Policy: it would block the embedded video and map.
 */
export function securityHeaders(
  config: Config,
  content: SiteContent,
  inline: InlineHashes,
  images: ImageSources,
): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy(config, content, inline, images),
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true },
    xFrameOptions: { action: 'deny' },
  });
}

/** The distinct origins of the absolute addresses among these (site-relative ones are 'self'). */
function originsOf(addresses: readonly (string | null | undefined)[]): string[] {
  const origins = new Set<string>();
  for (const address of addresses) {
    if (address && URL.canParse(address)) origins.add(new URL(address).origin);
  }
  return [...origins];
}

function srcsetAddresses(srcset: string | undefined): string[] {
  return (srcset ?? '')
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0]!)
    .filter(Boolean);
}
