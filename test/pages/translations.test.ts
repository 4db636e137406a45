import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../helpers/languages.ts';
import { LOCALES_DIR } from '../../server/config/paths.ts';

const dictionaries = Object.fromEntries(
  LANGUAGES.map((lng) => [lng, JSON.parse(readFileSync(path.join(LOCALES_DIR, lng, 'translation.json'), 'utf8'))]),
) as Record<string, Record<string, unknown>>;

describe('locale files', () => {
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
