import { createServer } from 'node:http';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { countingTranslations, testApp } from '../helpers/app.ts';

const TITLES = { de: 'Unsere Studios', en: 'Our studios', es: 'Nuestros estudios' } as const;

describe('concurrent renders in different languages', () => {
  it('answer each of 240 simultaneous requests in its own language, rendering each page and language once', async () => {
    const translations = await countingTranslations();
    const { app } = await testApp({ translations });
    const rendersAtStart = translations.renders;
    const server = createServer(app).listen(0);
    try {
      const requests = Array.from({ length: 240 }, (_, i) => {
        const lng = LANGUAGES[i % 3]!;
        const path = i % 2 ? '/' : '/impressum';
        return request(server)
          .get(path)
          .set('Cookie', `selectedLanguage=${lng}`)
          .then((res) => ({ lng, path, res }));
      });
      const answers = await Promise.all(requests);
      for (const { lng, path, res } of answers) {
        expect(res.status).toBe(200);
        expect(res.text).toContain(`<html lang="${lng}" dir="ltr">`);
        expect(res.text).toContain(`"language":"${lng}"`);
        if (path === '/') {
          expect(res.text).toContain(TITLES[lng]);
          for (const other of LANGUAGES.filter((l) => l !== lng)) expect(res.text).not.toContain(TITLES[other]);
        }
      }
      // Each render has an i18next instance of its own: two pages in three languages.
      expect(translations.renders - rendersAtStart).toBe(6);
    } finally {
      server.close();
    }
  });
});
