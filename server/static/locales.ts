import { Router } from 'express';
import type { Language } from '../../shared/languages.ts';
import { NAMESPACE } from '../../shared/i18n-options.ts';
import type { Translations } from '../content/translations.ts';
import { encodeSmallBody, sendEncoded, type EncodedBody } from '../http/content-coding.ts';
import { entityTag } from '../http/entity-tag.ts';
import { isNotModified, validatorsOf } from '../http/not-modified.ts';

interface EncodedLocale {
  body: EncodedBody;
  /** Weak: one validator for the brotli, gzip and identity bodies (RFC 9110 8.8.1). */
  etag: string;
}

/**
 * /locales/<lng>/translation.json, answered from memory, compressed once at start: no file
 * path is ever built from the request, so nothing outside the offered languages' dictionaries can be reached.
 */
export function localesRouter(translations: Translations): Router {
  const files = new Map<Language, EncodedLocale>(
    translations.languages.map((language) => {
      const file = translations.file(language);
      return [language, { body: encodeSmallBody(file), etag: entityTag(file, 'weak') }];
    }),
  );
  const router = Router();
  router.get(`/:lng/${NAMESPACE}.json`, (req, res, next) => {
    const { lng } = req.params;
    const file = files.get(lng);
    if (!file) return next();
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('ETag', file.etag);
    res.vary('Accept-Encoding');
    if (isNotModified(req.headers, validatorsOf(res))) {
      res.status(304).end();
      return;
    }
    sendEncoded(req, res, file.body);
  });
  return router;
}
