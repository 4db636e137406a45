import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { LOCALES_DIR } from '../../server/config/paths.ts';

const dictionaries = Object.fromEntries(
  LANGUAGES.map((lng) => [lng, JSON.parse(readFileSync(path.join(LOCALES_DIR, lng, 'translation.json'), 'utf8'))]),
) as Record<string, Record<string, unknown>>;

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('locale files', () => {
  it('have the same keys in every language', () => {
    const german = keys(dictionaries.de).sort();
    for (const lng of LANGUAGES) expect(keys(dictionaries[lng]).sort(), lng).toEqual(german);
  });

  it('label the studio picker "Studio auswählen" in German', () => {
    expect((dictionaries.de!.location as Record<string, string>).select).toBe('Studio auswählen');
  });

  it('use the texts of the specification in English', () => {
    const en = dictionaries.en as Record<string, Record<string, string>>;
    expect(en.overlay).toMatchObject({ title: 'Select Language', subtitle: 'Please choose your preferred language' });
    expect(en.hero!.loadingStudios).toBe('Loading studios...');
    expect(en.notFound).toMatchObject({ message: 'Oops! Page not found', home: 'Return to Home' });
  });
});
