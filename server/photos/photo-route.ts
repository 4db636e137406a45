import express, { type RequestHandler } from 'express';
import { setRouteLabel } from '../http/route-label.ts';
import type { PhotoStore } from './photo-store.ts';

/** Where the made pictures are served: under /images/, which the shipped edge caches keep. */
export const PHOTOS_PATH = '/images/photos';

/**
 * GET /images/photos/<name>: a picture the store names, from its file. A name is the photo's
 * hash with the crop and width, so the bytes behind it never change: browsers and caches keep
 * it for a year without asking again, like the hashed assets. Any other name goes on (a 404).
 */
export function photoRoute(store: PhotoStore): RequestHandler {
  const router = express.Router();
  router.get(`${PHOTOS_PATH}/:name`, (req, res, next) => {
    const file = store.file(req.params.name);
    if (!file) return next();
    setRouteLabel(res, PHOTOS_PATH);
    res.sendFile(
      file.path,
      {
        headers: { 'Content-Type': file.type, ETag: `"${req.params.name}"` },
        maxAge: '1y',
        immutable: true,
        etag: false,
        lastModified: false,
      },
      (error) => {
        // Removed since the store named it (a photo replaced meanwhile): as if it never was.
        if (error && !res.headersSent) next();
      },
    );
  });
  return router;
}
