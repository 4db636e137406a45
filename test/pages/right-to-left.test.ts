import { rmSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../server/content/site-content.ts';
import { loadTranslations } from '../../server/content/translations.ts';
import { addressLine } from '../../shared/page-data.ts';
import { testApp } from '../helpers/app.ts';
import { withFixtureLanguages } from '../helpers/fixture-languages.ts';
import { parseHtml } from '../helpers/html.ts';

/**
 * The markup that keeps data in its written order on a right-to-left page: what the content file
 * gives verbatim is set apart (a `<bdi>`, in its own direction; a link with `dir="ltr"` for a phone
 * number, an e-mail or web address), and what Intl formats for the page's locale is not. The
 * browser suite measures the result on screen (`test/browser/right-to-left.test.ts`).
 */

const fixture = withFixtureLanguages();
afterAll(() => rmSync(path.dirname(fixture.localesDir), { recursive: true, force: true }));
const content = loadContent(fixture.contentPath, fixture.contentPath, fixture.localesDir);
const { company, studios } = content.public;

let app: RequestListener;
beforeAll(async () => {
  const translations = await loadTranslations(fixture.localesDir, fixture.languages);
  ({ app } = await testApp({ content, translations }, { NODE_ENV: 'test' }));
});

const page = async (url: string) => parseHtml((await request(app).get(url).expect(200)).text);
/** The text of each `<bdi>` in the element, and its `dir` where it has one. */
const isolated = (element: Element) =>
  [...element.querySelectorAll('bdi')].map((bdi) => ({
    text: bdi.textContent,
    dir: bdi.getAttribute('dir'),
  }));
const data = (...texts: string[]) => texts.map((text) => ({ text, dir: null }));

describe('the right-to-left legal notice', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await page('/impressum?lng=ar');
    expect(doc.documentElement.getAttribute('dir')).toBe('rtl');
  });

  it('links the phone number, the e-mail and the web address left to right', () => {
    const links = [...doc.querySelectorAll('.legal__facts a')].map((a) => [a.getAttribute('dir'), a.textContent]);
    expect(links).toEqual([
      ['ltr', company.phone],
      ['ltr', company.email],
      ['ltr', company.website],
    ]);
    expect(doc.querySelector('.legal__facts a')!.getAttribute('href')).toBe('tel:+4312345678');
  });

  it('sets apart the owner’s name, legal form, street, and postal code with its town; not the country, named in the page’s language', () => {
    const owner = doc.querySelector('[aria-labelledby="owner-heading"] > p')!;
    expect(isolated(owner)).toEqual(
      data(company.name, company.legalForm, company.street, `${company.postalCode} ${company.city}`),
    );
    expect(owner.textContent).toContain('النمسا');
    expect(isolated(owner).map(({ text }) => text)).not.toContain('النمسا');
  });

  it('sets apart the register’s facts, not the translated purpose', () => {
    const [, facts] = doc.querySelectorAll('.legal__facts');
    expect(isolated(facts!)).toEqual(
      data(company.register, company.registerCourt, company.vatId, company.managingDirectors, company.authority),
    );
  });

  it('sets apart the data within the privacy policy’s text, which reads as before', () => {
    const scope = doc.querySelector('.legal__privacy h3 + p')!;
    expect(isolated(scope)).toEqual([
      { text: company.name, dir: null },
      {
        text: `${company.street}, ${company.postalCode} ${company.city}`,
        dir: null,
      },
      { text: company.privacyEmail, dir: 'ltr' },
    ]);
    expect(scope.textContent).toContain(
      `The controller is ${company.name}, ${company.street}, ${company.postalCode} ${company.city}, النمسا. `,
    );
    const paragraphs = [...doc.querySelectorAll('.legal__privacy p')];
    const objection = paragraphs.find((p) => p.textContent!.includes('Please send your objection to'))!;
    expect(isolated(objection)).toEqual([{ text: company.privacyEmail, dir: 'ltr' }]);
    expect(objection.textContent).toMatch(new RegExp(`send your objection to ${company.privacyEmail}\\.$`));
  });

  it('leaves the date Intl formats for the page’s locale as the locale writes it', () => {
    const updated = doc.querySelector('.legal__updated')!;
    expect(updated.querySelectorAll('bdi, [dir]')).toHaveLength(0);
    expect(updated.textContent).toContain(content.public.privacyUpdated.ar);
  });

  it('draws the back link’s arrow in an element of its own, which the stylesheet mirrors, hidden from screen readers', () => {
    const back = doc.querySelector('a.legal__back')!;
    const arrow = back.querySelector('.arrow')!;
    expect(arrow.textContent).toBe('←');
    expect(arrow.getAttribute('aria-hidden')).toBe('true');
    expect(back.textContent).toBe('← Back to home');
  });
});

describe('the right-to-left landing page', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await page('/?lng=ar');
  });

  it('sets apart the address in the map panel and the list without scripts, the country aside', () => {
    const panel = doc.querySelector('.map-panel__address')!;
    expect(isolated(panel)).toEqual(data(studios[0]!.byLanguage.ar!.address));
    expect(panel.textContent).toBe(addressLine(studios[0]!.byLanguage.ar!));
    const list = [...doc.querySelectorAll('.studio-list__address')];
    expect(list.map(isolated)).toEqual(studios.map((studio) => data(studio.byLanguage.ar!.address)));
    expect(list.map((address) => address.textContent)).toEqual(
      studios.map((studio) => addressLine(studio.byLanguage.ar!)),
    );
  });

  it('sets apart each studio card’s name and city, and each city the hero names', () => {
    const cards = [...doc.querySelectorAll('.studio-card__body')];
    expect(cards.map(isolated)).toEqual(
      studios.map((studio) => data(studio.byLanguage.ar!.name, studio.byLanguage.ar!.city)),
    );
    const cities = doc.querySelector('.hero__cities')!;
    expect(isolated(cities)).toEqual(data('München', 'Marbella', 'Wien', 'Zürich'));
    expect(cities.textContent).toBe('München · Marbella · Wien · Zürich');
  });

  it('sets apart the company in the footer, and not the dates and times Intl formats', () => {
    const footer = doc.querySelector('.footer__copyright')!;
    expect(isolated(footer)).toEqual(data(company.name));
    expect(footer.textContent).toBe(`© ${content.public.copyrightYear} ${company.name}. All rights reserved.`);
    expect(doc.querySelector('.hero__when')!.querySelectorAll('bdi, [dir]')).toHaveLength(0);
  });
});
