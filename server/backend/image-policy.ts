/**
 * Which image addresses the backend may hand the page: https: on the backend's own
 * host or one of IMAGE_HOSTS, or http: when the backend itself runs on loopback
 * (a local Supabase). The page's Content-Security-Policy allows images from the same list.
 */
export interface ImagePolicy {
  allows(address: string): boolean;
  /** The origins images may come from, for the Content-Security-Policy's img-src. */
  origins: string[];
}

export const MAX_IMAGE_URL_LENGTH = 2048;

export function imagePolicy(backendUrl: string, imageHosts: readonly string[]): ImagePolicy {
  const backend = new URL(backendUrl);
  const loopbackBackend = isLoopback(backend.hostname);
  const hosts = new Set([backend.host, ...imageHosts]);

  const allowedProtocol = (url: URL) =>
    url.protocol === 'https:' || (url.protocol === 'http:' && loopbackBackend && isLoopback(url.hostname));

  return {
    allows(address) {
      if (address.length > MAX_IMAGE_URL_LENGTH || !URL.canParse(address)) return false;
      const url = new URL(address);
      return allowedProtocol(url) && hosts.has(url.host) && !url.username && !url.password;
    },
    origins: [backend.origin, ...imageHosts.map((host) => `https://${host}`)],
  };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
