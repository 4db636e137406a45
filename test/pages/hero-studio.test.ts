import request from 'supertest';
import type { RequestListener } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HeroSlidesAnswer } from '../../shared/api.ts';
import type { SampleLanguage } from '../helpers/languages.ts';
import { LANGUAGES } from '../helpers/languages.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { editedContent } from '../helpers/content-file.ts';
import { parseHtml } from '../helpers/html.ts';

/**
 * A hero slide of the content file names its studio by id: the hero shows the name the studio
 * has in the page's language, and a studio renamed in `studios` is renamed in the hero too.
 */

/** The first slide's studio, Munich, with its own name in English and Spanish. */
const NAMES: Record<SampleLanguage, string> = {
  de: 'Studio München',
  en: 'Munich Studio',
  es: 'Estudio Múnich',
};

const landing = async (app: RequestListener, lng: SampleLanguage) => {
  const res = await request(app).get('/').set('Cookie', `selectedLanguage=${lng}`).expect(200);
  return { html: res.text, doc: parseHtml(res.text) };
};

describe('the hero names the studio of a content slide', () => {
  let app: RequestListener;
  beforeAll(async () => {
    const content = editedContent((file) => {
      file.studios[0].localized.en.name = NAMES.en;
      file.studios[0].localized.es.name = NAMES.es;
    });
    ({ app } = await testApp({ content }));
  });

  it.each(LANGUAGES)('in the page’s language (%s), as the studio cards do', async (lng) => {
    const { doc } = await landing(app, lng);
    expect(doc.querySelector('.hero__studio')!.textContent).toBe(NAMES[lng]);
    expect([...doc.querySelectorAll('.studio-card__name')].map((h) => h.textContent)).toContain(NAMES[lng]);
  });

  it('from the studio ids the page carries, not from a copy of the names', async () => {
    const { html } = await landing(app, 'en');
    const slides = bootstrapOf(html).app.heroSlides!;
    expect(slides.map((slide) => ('studioId' in slide ? slide.studioId : slide.studio))).toEqual([
      'munich',
      'marbella',
      'vienna',
      'zurich',
    ]);
    expect(slides.some((slide) => 'studio' in slide)).toBe(false);
  });

  it('while /api/hero-slides keeps { image, studio }, the studio named in its local form, in any language', async () => {
    for (const lng of LANGUAGES) {
      const res = await request(app).get('/api/hero-slides').set('Cookie', `selectedLanguage=${lng}`).expect(200);
      const { heroSlides } = res.body as HeroSlidesAnswer;
      expect(heroSlides.map((slide) => slide.studio)).toEqual([
        'Studio München',
        'Studio Marbella',
        'Studio Wien',
        'Studio Zürich',
      ]);
      expect(heroSlides[0]).toEqual({
        image: '/images/hero/munich-1600.jpg',
        srcset: expect.stringContaining('munich-800.jpg 800w') as string,
        studio: 'Studio München',
      });
    }
  });
});

describe('a studio renamed in `studios` and nowhere else', () => {
  it('is renamed in the hero and in /api/hero-slides', async () => {
    const { app } = await testApp({ content: editedContent((file) => (file.studios[0].name = 'Studio Ismaning')) });
    const { doc } = await landing(app, 'de');
    expect(doc.querySelector('.hero__studio')!.textContent).toBe('Studio Ismaning');
    const res = await request(app).get('/api/hero-slides').expect(200);
    expect((res.body as HeroSlidesAnswer).heroSlides[0]!.studio).toBe('Studio Ismaning');
  });
});
