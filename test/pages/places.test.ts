import request from 'supertest';
import type { Express } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../shared/languages.ts';
import { bootstrapOf, testApp } from '../helpers/app.ts';
import { metaContent, parseHtml } from '../helpers/html.ts';

/** The studios' places are written once, in the content, and named in the page's language. */

const ENV = { NODE_ENV: 'test', PUBLIC_ORIGIN: 'https://event.example.com' };

describe('places in the language of the page', () => {
  let app: Express;
  beforeAll(async () => {
    ({ app } = await testApp({}, ENV));
  });

  const cards = async (lng: Language) => {
    const doc = parseHtml((await request(app).get(`/?lng=${lng}`).expect(200)).text);
    return {
      doc,
      cities: [...doc.querySelectorAll('.studio-card__city')].map((city) => city.textContent),
    };
  };

  it('names the studios’ countries in English, Spanish and German', async () => {
    expect((await cards('en')).cities).toEqual([
      'Ismaning, Germany',
      'Marbella, Spain',
      'Vienna, Austria',
      'Dübendorf, Switzerland',
    ]);
    expect((await cards('es')).cities).toEqual([
      'Ismaning, Alemania',
      'Marbella, España',
      'Viena, Austria',
      'Dübendorf, Suiza',
    ]);
    expect((await cards('de')).cities).toEqual([
      'Ismaning, Deutschland',
      'Marbella, Spanien',
      'Wien, Österreich',
      'Dübendorf, Schweiz',
    ]);
  });

  it('lists the hero’s cities from the studios, and the addresses with the country in the page’s language', async () => {
    const { doc } = await cards('en');
    expect(doc.querySelector('.hero__cities')!.textContent).toBe('Munich · Marbella · Vienna · Zurich');
    expect([...doc.querySelectorAll('.studio-list__address')].map((address) => address.textContent)).toEqual([
      'Medienallee 7, 85737 Ismaning, Germany',
      'Avenida del Mar 12, 29602 Marbella (Málaga), Spain',
      'Vorgartenstraße 206, 1020 Wien, Austria',
      'Überlandstrasse 105, 8600 Dübendorf, Switzerland',
    ]);
    expect(metaContent(doc, 'description')).toContain('Live from Munich, Marbella, Vienna and Zurich');
  });

  it('sends the country names in the page’s data, so the browser never names them itself', async () => {
    const { app: data } = bootstrapOf((await request(app).get('/?lng=es').expect(200)).text);
    expect(data.content.studios.map((studio) => studio.byLanguage.es.country)).toEqual([
      'Alemania',
      'España',
      'Austria',
      'Suiza',
    ]);
    expect(data.content.company.country.en).toBe('Austria');
  });

  it('names the company’s country in the legal notice in the page’s language', async () => {
    const doc = parseHtml((await request(app).get('/impressum?lng=es').expect(200)).text);
    const owner = doc.querySelector('section[aria-labelledby="owner-heading"] p')!.textContent!;
    expect(owner).toContain('1020 Wien');
    expect(owner.endsWith('Austria')).toBe(true);
    expect(doc.querySelector('#Datenschutzerklärung')!.textContent).toContain('Praterstraße 1, 1020 Wien, Austria');
  });
});
