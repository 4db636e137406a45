import type { IncomingMessage } from 'node:http';
import proxyAddress from 'proxy-addr';
import type { TrustProxy } from '../config/environment.ts';

/** Whether the proxy at `address`, `hop` hops from this server, may say who its client was. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as a trust function, with the meaning Express gives its `trust proxy` setting: none,
 * a hop count, or a list of addresses and ranges. Express is given this same function, so that its
 * `req.ip` and `clientAddress` below are one.
 */
export function proxyTrust(trust: TrustProxy): ProxyTrust {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddress.compile(trust);
}

/** The client's address, read through the trusted proxies only (as Express's `req.ip`). */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  return proxyAddress(req, trust);
}
