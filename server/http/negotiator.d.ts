// The part of negotiator 1.x this server uses, as its README documents it (@types/negotiator
// describes 0.6, without the `preferred` option).
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';

  class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** The best of `available` the client accepts; among equal qualities, the first in `preferred`. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
  export = Negotiator;
}
