import { Router } from 'express';
import { isLanguage } from '../../shared/languages.ts';
import { NAMESPACE } from '../../shared/i18n-options.ts';
import type { Translations } from '../pages/i18n.ts';

/**
 * /locales/<lng>/translation.json, answered from memory: no file path is ever built
 * from the request, so nothing outside the three dictionaries can be reached.
 */
export function localesRouter(translations: Translations): Router {
  const router = Router();
  router.get(`/:lng/${NAMESPACE}.json`, (req, res, next) => {
    const { lng } = req.params;
    if (!isLanguage(lng)) return next();
    const file = translations.file(lng);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', file.etag);
    res.type('application/json').send(file.body);
  });
  return router;
}
