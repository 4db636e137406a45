import type { Express, Response } from 'express';

/**
 * Every Location the app sets through res.location or res.redirect stays on the public origin:
 * an address that a browser would resolve elsewhere ("//evil.example", "/\evil.example",
 * "https://evil.example") is replaced by "/". Static files never redirect at all (their
 * trailing-slash redirect is switched off where they are mounted).
 */
export function keepRedirectsOnOrigin(app: Express, publicOrigin: string): void {
  const location = app.response.location;
  app.response.location = function (this: Response, url: string) {
    return location.call(this, staysOnOrigin(url, publicOrigin) ? url : '/');
  };
}

/** Whether a browser on `origin` would resolve `url` to the same origin. */
export function staysOnOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url, `${origin}/`).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}
