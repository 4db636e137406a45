import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Data, LtrData, withElements } from '../../client/data-text.tsx';
import { I18N_OPTIONS, NAMESPACE } from '../../shared/i18n-options.ts';

const i18n = i18next.createInstance();
await i18n.init({
  ...I18N_OPTIONS,
  lng: 'en',
  resources: {
    en: {
      [NAMESPACE]: {
        product: 'Horizon Live 2027',
        line: '© {{year}} {{company}}. Write to {{email}} about $t(product); {{company}} answers.',
        plain: 'No data here.',
      },
    },
  },
});
const t = i18n.t.bind(i18n);

describe('data within a text of the dictionary', () => {
  it('is set in its places as elements, each place it is named, the text otherwise as i18next gives it', () => {
    const html = renderToStaticMarkup(
      <p>
        {withElements(t, 'line', {
          year: 2027,
          company: <Data>Horizon Media Events GmbH</Data>,
          email: <LtrData>office@horizon-live.example.com</LtrData>,
        })}
      </p>,
    );
    expect(html).toBe(
      '<p>© 2027 <bdi>Horizon Media Events GmbH</bdi>. Write to <bdi dir="ltr">office@horizon-live.example.com</bdi>' +
        ' about Horizon Live 2027; <bdi>Horizon Media Events GmbH</bdi> answers.</p>',
    );
  });

  it('gives the same text content as the text with the data written in', () => {
    const shown = renderToStaticMarkup(
      <>{withElements(t, 'line', { year: 2027, company: <Data>A &amp; B</Data>, email: 'x@example.com' })}</>,
    );
    const written = t('line', { year: 2027, company: 'A & B', email: 'x@example.com' });
    expect(shown.replace(/<[^>]+>/g, '').replaceAll('&amp;', '&')).toBe(written);
  });

  it('leaves a text without data as it is', () => {
    expect(renderToStaticMarkup(<>{withElements(t, 'plain', {})}</>)).toBe('No data here.');
  });
});
